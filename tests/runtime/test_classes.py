"""Classes: attributes, ownership, global objects, inheritance and action calls."""

from __future__ import annotations

CLASSES = """
function Note { function input string s; returns number; effect { log(s); return 1; } }

class Base
{
    number a = Note(s: "init Base.a");
    number b = a + 10;
    attribute Name
    {
        returns string;
        value "base";
    }
    function Describe { returns string; effect { return "Base(" + b + ")"; } }
    function Hello { returns string; effect { return "hello from " + Describe(); } }
}

class Derived : Base
{
    number c = Note(s: "init Derived.c") + b;
    override function Describe { returns string; effect { return "Derived/" + base.Describe(); } }
}
"""


def test_attributes_initialise_base_first_in_order(setup_log):
    log = setup_log("""
        Derived d = new Derived();
        log(d.a);
        log(d.b);
        log(d.c);
        log(d.Name);
    """, defs=CLASSES)
    assert log == ["init Base.a", "init Derived.c", "1", "11", "12", "base"]


def test_each_object_has_its_own_attributes(run_setup):
    state = run_setup("""
        Base x = new Base();
        Base y = new Base();
        x.b = 99;
    """, defs=CLASSES)
    fields = {o["name"]: o["fields"] for o in state.to_json()["objects"]}
    assert fields["Base#0"]["b"] == 99
    assert fields["Base#1"]["b"] == 11
    assert fields["Base#1"]["Name"] == "base"


def test_override_dispatches_on_the_dynamic_type_and_base_reaches_the_parent(setup_log):
    log = setup_log("""
        Derived d = new Derived();
        Base asBase = d;
        log(asBase.Describe());
        log(d.Hello());
        Base plain = new Base();
        log(plain.Hello());
    """, defs=CLASSES)
    said = [line for line in log if not line.startswith("init")]
    assert said == ["Derived/Base(11)", "hello from Derived/Base(11)", "hello from Base(11)"]


OWNERSHIP = """
local class Hand { }
group class Team { }
class Plain { }
"""


def test_assign_moves_a_local_object_between_players(run_setup):
    state = run_setup("""
        Hand h = new Hand();
        log(h.player);
        log(h.players.length);
        h.assign(1);
        log(h.player);
        h.assign(2);
        log(h.player);
        log(h.players);
        Plain p = new Plain();
        p.assign(0);
        p.assign(1);
        log(p.players);
    """, defs=OWNERSHIP, players=3)
    assert state.log == ["null", "0", "1", "2", "{2}", "{1}"]
    owners = {o.name: list(state.world.owners_of(o)) for o in state.world.objects}
    assert owners == {"Hand#0": [2], "Plain#0": [1]}


def test_assign_adds_owners_to_a_group_object(run_setup):
    state = run_setup("""
        Team t = new Team();
        t.assign(2);
        t.assign(0);
        t.assign(2);
        log(t.player);
        log(t.players);
    """, defs=OWNERSHIP, players=3)
    assert state.log == ["2", "{2, 0}"]
    assert state.to_json()["objects"][0]["owners"] == [2, 0]


def test_assign_maps_the_player_number(setup_log):
    assert setup_log("Hand h = new Hand(); h.assign(4); log(h.player);", defs=OWNERSHIP, players=3) == ["1"]


GLOBAL = """
global class Score
{
    number Count = 0;
    List<string> Seen = {};
    function Bump { function input string who; returns; effect { Count += 1; Seen.add(who); } }
}
class User { function Touch { returns; effect { Score.Bump(who: "user"); } } }
"""


def test_a_global_class_has_one_instance_shared_everywhere(run_setup):
    state = run_setup("""
        Score.Bump(who: "setup");
        User u = new User();
        u.Touch();
        log(Score.Count);
        log(Score.Seen);
    """, defs=GLOBAL)
    assert state.log == ["2", "{setup, user}"]
    globals_ = [o for o in state.world.objects if o.cls.name == "Score"]
    assert len(globals_) == 1 and globals_[0].name == "Score"


def test_a_global_object_exists_before_setup_runs(setup_log):
    assert setup_log("log(Score.Count);", defs=GLOBAL) == ["0"]


ACTIONS = """
class Gate
{
    number Opened = 0;
    action Open
    {
        input player who;
        require { return Opened < 2; }
        effect { Opened += 1; log("open " + Opened + " by " + who); }
    }
    action Twice
    {
        require { return Opened == 0; }
        effect { Open(who: 1); Open(who: 0); }
    }
}
class SlowGate : Gate
{
    override action Open
    {
        input player who;
        effect { log("slow"); base.Open(who: who); }
    }
}
"""


def test_calling_an_action_honours_its_require(setup_log):
    log = setup_log("""
        Gate g = new Gate();
        g.Open(who: 1);
        g.Open(who: 0);
        g.Open(who: 1);
        log(g.Opened);
    """, defs=ACTIONS)
    assert log == ["open 1 by 1", "open 2 by 0", "2"]


def test_an_action_can_call_actions_of_this(setup_log):
    log = setup_log("Gate g = new Gate(); g.Twice(); g.Twice(); log(g.Opened);", defs=ACTIONS)
    assert log == ["open 1 by 1", "open 2 by 0", "2"]


def test_an_overriding_action_drops_the_base_require_but_base_call_checks_it(setup_log):
    log = setup_log("""
        SlowGate g = new SlowGate();
        g.Opened = 5;
        g.Open(who: 1);
        log(g.Opened);
    """, defs=ACTIONS)
    assert log == ["slow", "5"]


def test_object_names_count_per_type_in_creation_order(run_setup):
    state = run_setup("""
        Base a = new Base();
        Derived b = new Derived();
        Base c = new Base();
    """, defs=CLASSES)
    assert [o.name for o in state.world.objects] == ["Base#0", "Derived#0", "Base#1"]
