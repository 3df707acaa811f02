"""Events: when listeners run, in which order, and what they see."""

from __future__ import annotations

EVENTS = """
event Ping { string tag = ""; number n = 0; }
event Special : Ping { }
event Other { }

global class Listeners
{
    action Plain
    {
        trigger Ping { return true; }
        effect { log("plain " + event.tag); }
    }
    action High
    {
        prio 5;
        trigger Ping { return event.n >= 0; }
        effect
        {
            log("high " + event.tag);
            if (event.tag == "parent")
            {
                Other o = new Other();
                event.throw(o);
                Ping child = new Ping();
                child.tag = "child";
                event.throw(child);
            }
        }
    }
    action OnOther
    {
        trigger Other { return true; }
        effect { log("other"); }
    }
    action Positive
    {
        trigger Ping { return event.n > 0; }
        effect { log("positive " + event.tag + " " + event.n); }
    }
    action Low
    {
        prio -1;
        trigger Ping { return true; }
        effect { log("low " + event.tag); }
    }
    action OnlySpecial
    {
        prio 1;
        trigger Special { return true; }
        effect { log("special " + event.tag); }
    }
}
"""


def ping(tag: str, n: int = 0, cls: str = "Ping") -> str:
    return f'{cls} e_{tag} = new {cls}(); e_{tag}.tag = "{tag}"; e_{tag}.n = {n};'


def test_async_throw_runs_listeners_after_the_current_block(setup_log):
    log = setup_log(f"""
        log("before");
        {ping("a")}
        event.throw(e_a);
        log("after");
    """, defs=EVENTS)
    assert log == ["before", "after", "high a", "plain a", "low a"]


def test_throw_sync_runs_listeners_at_once(setup_log):
    log = setup_log(f"""
        log("before");
        {ping("s", 2)}
        event.throw_sync(e_s);
        log("after");
    """, defs=EVENTS)
    assert log == ["before", "high s", "plain s", "positive s 2", "low s", "after"]


def test_priority_then_declaration_order(setup_log):
    # High (prio 5) > Plain, Positive (prio 0, in declaration order) > Low (prio -1)
    log = setup_log(f"{ping('x', 1)} event.throw(e_x);", defs=EVENTS)
    assert log == ["high x", "plain x", "positive x 1", "low x"]


def test_ties_in_priority_and_declaration_run_in_object_creation_order(setup_log):
    log = setup_log("""
        Listener first = new Listener();
        first.Name = "first";
        Listener second = new Listener();
        second.Name = "second";
        Bell b = new Bell();
        event.throw(b);
    """, defs="""
        event Bell { }
        class Listener
        {
            string Name = "";
            action Hear { trigger Bell { return true; } effect { log(Name); } }
        }
    """)
    assert log == ["first", "second"]


def test_events_resolve_breadth_first(setup_log):
    # the listeners of `parent` throw Other and `child`: they wait behind `second`, thrown earlier
    log = setup_log(f"""
        {ping("parent")}
        event.throw(e_parent);
        {ping("second")}
        event.throw(e_second);
    """, defs=EVENTS)
    assert log == [
        "high parent", "plain parent", "low parent",
        "high second", "plain second", "low second",
        "other",
        "high child", "plain child", "low child",
    ]


def test_throw_sync_also_resolves_what_its_listeners_throw(setup_log):
    log = setup_log(f"""
        {ping("parent")}
        event.throw_sync(e_parent);
        log("after");
    """, defs=EVENTS)
    assert log == ["high parent", "plain parent", "low parent", "other", "high child", "plain child", "low child", "after"]


def test_async_events_queued_before_a_sync_throw_wait(setup_log):
    log = setup_log(f"""
        {ping("queued")}
        event.throw(e_queued);
        {ping("now")}
        event.throw_sync(e_now);
        log("after");
    """, defs=EVENTS)
    assert log == ["high now", "plain now", "low now", "after", "high queued", "plain queued", "low queued"]


def test_a_trigger_on_a_base_event_fires_for_a_derived_event(setup_log):
    log = setup_log(f"""
        {ping("sp", 3, "Special")}
        event.throw(e_sp);
    """, defs=EVENTS)
    assert log == ["high sp", "special sp", "plain sp", "positive sp 3", "low sp"]


def test_a_trigger_on_a_derived_event_ignores_the_base_event(setup_log):
    assert "special" not in " ".join(setup_log(f"{ping('p')} event.throw(e_p);", defs=EVENTS))


def test_event_attributes_are_visible_in_trigger_and_effect(setup_log):
    log = setup_log("""
        Scored s = new Scored();
        s.who = 1;
        s.amount = 7;
        event.throw(s);
        Scored small = new Scored();
        small.amount = 2;
        event.throw(small);
    """, defs="""
        event Scored { player who; number amount = 0; }
        global class Board
        {
            action Announce
            {
                trigger Scored { log("trigger sees " + event.amount); return event.amount > 5; }
                effect { log("player " + event.who + " scored " + event.amount); }
            }
        }
    """)
    assert log == ["trigger sees 7", "player 1 scored 7", "trigger sees 2"]


def test_require_and_trigger_are_evaluated_when_the_event_resolves(setup_log):
    # the trigger reads Armed when the queue is resolved (after setup), not at the throw;
    # every listener's require is evaluated before the first listener runs
    log = setup_log("""
        Bell b = new Bell();
        event.throw(b);
        Switch.Armed = true;
    """, defs="""
        event Bell { }
        global class Switch
        {
            bool Armed = false;
            action Disarm
            {
                prio 1;
                trigger Bell { return Armed; }
                effect { Armed = false; log("disarm"); }
            }
            action Ring
            {
                require { return Armed; }
                trigger Bell { return true; }
                effect { log("ring, armed " + Armed); }
            }
        }
    """)
    assert log == ["disarm", "ring, armed false"]


def test_an_event_thrown_twice_is_resolved_twice(setup_log):
    log = setup_log("""
        Bell b = new Bell();
        event.throw(b);
        event.throw(b);
    """, defs="""
        event Bell { }
        global class Counter
        {
            number N = 0;
            action Hear { trigger Bell { return true; } effect { N += 1; log("heard " + N); } }
        }
    """)
    assert log == ["heard 1", "heard 2"]


def test_events_thrown_in_a_move_resolve_after_its_effect_and_before_the_next_phase(start):
    state = start("""
        game "t";
        players 2;
        event Bell { }
        class Seat
        {
            action Go
            {
                trigger PlayerChoiceEvent { return true; }
                effect { Bell b = new Bell(); event.throw(b); turn.pass(); log("effect done"); }
            }
            action Hear { trigger Bell { return true; } effect { log("heard by " + player); } }
        }
        turn T { phase P { log("enter P for " + player.active()); } default { return player.active() + 1; } }
        setup
        {
            Seat a = new Seat(); a.assign(0);
            Seat b = new Seat(); b.assign(1);
            turn.use("T");
            turn.pass(0, "P");
        }
    """)
    assert state.log == ["enter P for 0"]
    after = state.apply("Seat#0.Go()")
    assert after.log[1:] == ["effect done", "heard by 0", "heard by 1", "enter P for 1"]


def test_the_current_block_is_the_outermost_one_the_runtime_runs(setup_log):
    # throws in a nested block, a function and a called action all wait for the end of setup
    log = setup_log("""
        if (true) { Bell a = new Bell(); a.tag = "nested"; event.throw(a); log("nested block done"); }
        Ring(tag: "function");
        log("function returned");
        Caller c = new Caller();
        c.Call();
        log("action returned");
    """, defs="""
        event Bell { string tag = ""; }
        function Ring { function input string tag; returns; effect { Bell b = new Bell(); b.tag = tag; event.throw(b); } }
        class Caller { action Call { effect { Ring(tag: "action"); } } }
        global class Ear { action Hear { trigger Bell { return true; } effect { log("heard " + event.tag); } } }
    """)
    assert log == ["nested block done", "function returned", "action returned",
                   "heard nested", "heard function", "heard action"]
