"""The checker: everything `tgpl check` verifies beyond syntax.

It runs in three passes over a loaded `Program`:
1. directives and file structure (`game` first, `players` and `setup` in the
   game file, imports before definitions);
2. the class table: bases, members, overrides, kind rules (what a tile, an
   event, a stack may define);
3. every block of code, through `BodyChecker` (names, types, control flow).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tgpl.frontend import ast
from tgpl.frontend.bodies import MAX_LITERAL, BodyChecker, Env, Flow, _did_you_mean
from tgpl.builtin_calls import builtin_methods
from tgpl.frontend.builtins import OWNABLE, BuiltinClasses, builtin_attributes
from tgpl.frontend.control_passes import check_control_passes, check_moves_keep_control
from tgpl.frontend.phases_reached import check_phases_reached
from tgpl.frontend.diagnostics import Diagnostics, Span
from tgpl.frontend.symbols import ClassInfo, FunctionInfo, Scope, TurnInfo
from tgpl.frontend.types import (
    ANY, BOOL, NUMBER, PLAYER, PRIMITIVES, VOID, ClassType, Collection, Type, assignable, is_any,
)

if TYPE_CHECKING:
    from tgpl.frontend.loader import Program

GEOMETRIES = ("square", "hex", "graph")
MAX_PLAYERS = 64  # decision 75: player counts are 1..64
ORIENTATIONS = {"row": "row", "col": "col", "column": "col"}
_TAG_WORD = {
    ast.Effect: "effect", ast.Require: "require", ast.Trigger: "trigger", ast.Prio: "prio",
    ast.Returns: "returns", ast.Default: "default", ast.GroupDef: "group", ast.ActionDef: "action",
    ast.FunctionDef: "function", ast.InputDecl: "input", ast.Attribute: "attribute",
}
_KIND_ALLOWS = {
    "class": {"attribute", "function", "action"},
    "interactable": {"attribute", "function", "action"},
    "board": {"attribute", "function", "action", "group"},
    "stack": {"attribute", "function", "action", "returns", "default"},
    "tile": {"attribute", "function"},
    "connection": {"attribute", "function"},
    "event": {"attribute", "function"},
}
_KIND_NOUN = {
    "class": "a class", "interactable": "an interactable", "board": "a board", "stack": "a stack",
    "tile": "a tile", "connection": "a connection", "event": "an event",
}


class Checker:
    def __init__(self, program: Program, diags: Diagnostics):
        self.program = program
        self.diags = diags
        self.builtins = BuiltinClasses.create()
        program.builtins = self.builtins
        self.bodies = BodyChecker(self)
        self._return_types: dict[int, Type] = {}
        self._action_owners: dict[int, ClassInfo] | None = None
        self._broken_bases: set[int] = set()  # classes whose written base is unknown or cyclic
        self._keyed_told: set[int] = set()  # written types inside a `Table<K, V>` already reported

    # ============================================================ driver
    def run(self) -> None:
        for module in self.program.modules:
            if module.complete:  # else its syntax errors already say what is wrong
                self.check_directives(module, is_game_file=module.path == self.program.main)
        self.build_classes()
        for module in self.program.modules:
            scope = self.program.scopes[module.path]
            for item in module.items:
                self.check_item(item, scope)
        if all(m.complete for m in self.program.modules):
            check_control_passes(self.program.modules, self.program.player_range, self.diags)
            if not self.diags.has_errors:  # code a syntax error dropped may be what passes or enters a phase
                check_moves_keep_control(self.program.modules, self.program.player_range, self.diags)
                check_phases_reached(self.program.modules, self.diags)

    # ====================================================== type names
    def resolve_type(self, ref: ast.TypeRef, scope: Scope, report: bool = True) -> Type:
        if ref.args:
            if report and id(ref) not in self._keyed_told and _keyed(ref):  # `Table<K, V>` somewhere in it
                self.diags.error(ref.span, f"a Table takes one type, its values' (any value but null is a key): "
                                           f"write '{_one_typed(ref)}'")
                self._keyed_told.update(id(r) for r in _nested(ref))  # one error for the whole type
            return Collection(ref.name, self.resolve_type(ref.args[0], scope, report))
        if ref.name in PRIMITIVES:
            return PRIMITIVES[ref.name]
        sym = scope.lookup(ref.name)
        if isinstance(sym, ClassInfo):
            return ClassType(sym)
        builtin = self.builtins.by_name().get(ref.name)
        if builtin is not None:
            return ClassType(builtin)
        if report:
            if sym is not None:
                self.diags.error(ref.span, f"'{ref.name}' is not a type")
            else:
                known = list(PRIMITIVES) + [n for n, s in scope.names.items() if isinstance(s, ClassInfo)]
                known += list(self.builtins.by_name())
                self.diags.error(ref.span, f"unknown type '{ref.name}'{_did_you_mean(ref.name, known)}")
        return ANY

    def action_owner(self, action: ast.ActionDef) -> ClassInfo | None:
        """The class that defines an action (for its inputs' types)."""
        if self._action_owners is None:
            self._action_owners = {
                id(a): info for info in self.program.classes for a in info.actions.values()
            }
        return self._action_owners.get(id(action))

    def function_return_type(self, fn: FunctionInfo) -> Type:
        key = id(fn)
        if key not in self._return_types:
            ret = self._own_returns(fn)
            self._return_types[key] = ret
        return self._return_types[key]

    def _own_returns(self, fn: FunctionInfo) -> Type:
        tag = fn.defn.returns
        if tag is not None:
            return self.resolve_type(tag.type, fn.scope, report=False) if tag.type else VOID
        if fn.defn.override and fn.owner is not None and fn.owner.base is not None:
            base_fn = fn.owner.base.find_function(fn.name)
            if base_fn is not None and base_fn is not fn:
                return self.function_return_type(base_fn)
        return ANY

    # ================================================= pass 1: directives
    def check_directives(self, module: ast.Module, is_game_file: bool) -> None:
        seen_definition = False
        games = [i for i in module.items if isinstance(i, ast.GameDirective)]
        players = [i for i in module.items if isinstance(i, ast.PlayersDirective)]
        setups = [i for i in module.items if isinstance(i, ast.SetupDef)]
        for index, item in enumerate(module.items):
            if isinstance(item, ast.GameDirective):
                if not is_game_file:
                    self.diags.error(item.span, "'game' belongs in the game file only, not in an imported file")
                elif index != 0 and item is games[0]:  # a later one is reported as a duplicate
                    self.diags.error(item.span, "'game' must be the first directive of the game file")
            elif isinstance(item, ast.ImportDirective):
                if seen_definition:
                    self.diags.error(item.span, "imports must come before every definition")
            elif not isinstance(item, ast.PlayersDirective):
                seen_definition = True
        for dup in games[1:]:
            self.diags.error(dup.span, "duplicate 'game' directive")
        for dup in players[1:]:
            self.diags.error(dup.span, "duplicate 'players' directive")
        for dup in setups[1:]:
            self.diags.error(dup.span, "duplicate 'setup'")
        if not is_game_file:
            for item in players:
                self.diags.error(item.span, "'players' belongs in the game file only")
            for item in setups:
                self.diags.error(item.span, "'setup' belongs in the game file only")
            return
        start = Span(module.path, 1, 1, 1, 2)
        if not games:
            self.diags.error(start, "the game file needs a 'game' directive first, e.g. game \"name\";")
        anchor = games[0].span if games else start
        if not players:
            self.diags.error(anchor, "the game file needs a 'players' directive, e.g. players 2;")
        if not setups:
            self.diags.error(anchor, "the game file needs a 'setup' block, the game's entry point")
        for item in players[:1]:
            self.check_players(item, self.program.scopes[module.path])

    def check_players(self, item: ast.PlayersDirective, scope: Scope) -> None:
        counts = [self._check_player_count(e, scope) for e in (item.count, item.maximum) if e is not None]
        if len(counts) == 2 and None not in counts and counts[0] > counts[1]:
            self.diags.error(
                item.span, f"the player range {counts[0]}..{counts[1]} is empty: the minimum exceeds the maximum"
            )
        elif None not in counts:  # the runtime's counts: the same values the check accepted
            self.program.player_range = range(counts[0], counts[-1] + 1)

    def _check_player_count(self, count: ast.Expr, scope: Scope) -> int | None:
        """Check one count of `players`: a constant number expression in 1..MAX_PLAYERS; return it."""
        env = Env("attribute", scope)
        t = self.bodies.expr(count, env)
        if not assignable(t, NUMBER) or is_any(t):
            if not is_any(t):
                self.diags.error(count.span, f"'players' needs a number, not {t}")
            return None
        n = _constant(count)
        if n is None:
            self.diags.error(count.span, "'players' needs a constant number, e.g. players 2; or players 4..7;")
            return None
        if isinstance(count, ast.NumberLit) and not abs(n) <= MAX_LITERAL:  # reported as out of range
            return None
        if n < 1:
            self.diags.error(count.span, "a game needs at least one player")
            return None
        if n > MAX_PLAYERS:
            self.diags.error(count.span, f"too many players: a game has at most {MAX_PLAYERS}")
            return None
        if n != int(n):
            self.diags.warning(count.span, f"'players {n:g}' is truncated to {int(n)}")
        return int(n)

    # =============================================== pass 2: class table
    def build_classes(self) -> None:
        for info in self.program.classes:
            self._declare_members(info)
        for info in self.program.classes:
            self._resolve_base(info)
        for info in self.program.classes:
            self._check_inheritance_cycle(info)
        for info in self.program.classes:
            self._resolve_member_types(info)
        for info in self.program.classes:
            self._check_overrides(info)

    def _declare_members(self, info: ClassInfo) -> None:
        defn = info.defn
        assert defn is not None and info.scope is not None
        allowed = _KIND_ALLOWS[defn.kind]
        noun = _KIND_NOUN[defn.kind]
        if defn.visibility is not None and defn.kind not in OWNABLE:
            self.diags.error(defn.span, f"{noun} has no visibility: '{defn.visibility}' applies to classes, interactables, stacks and boards")
        seen: dict[str, Span] = {}
        for member in defn.members:
            word = _TAG_WORD.get(type(member), "?")
            if word not in allowed:
                if word in ("effect", "require", "trigger", "prio", "input"):
                    extra = " (tiles hold attributes and functions only)" if defn.kind == "tile" else ""
                    self.diags.error(member.span, f"'{word}' is not allowed in {noun}: it belongs inside an action{extra}")
                else:
                    self.diags.error(member.span, f"'{word}' is not allowed in {noun}")
                continue
            name = getattr(member, "name", None)
            if name is not None:
                self.bodies.check_name(name, member.name_span)
                if name in seen:
                    self.diags.error(member.name_span, f"duplicate member '{name}' in {defn.name}", f"first defined at {seen[name]}")
                    continue
                seen[name] = member.name_span
            if isinstance(member, ast.Attribute):
                info.attributes[name] = member
            elif isinstance(member, ast.FunctionDef):
                info.functions[name] = FunctionInfo(member, info.scope, info)
            elif isinstance(member, ast.ActionDef):
                info.actions[name] = member
            elif isinstance(member, ast.GroupDef):
                info.groups[name] = member
        if defn.kind == "stack":
            returns = [m for m in defn.members if isinstance(m, ast.Returns)]
            for dup in returns[1:]:
                self.diags.error(dup.span, "duplicate 'returns'")
            defaults = [m for m in defn.members if isinstance(m, ast.Default)]
            for dup in defaults[1:]:
                self.diags.error(dup.span, "duplicate 'default'")

    def _resolve_base(self, info: ClassInfo) -> None:
        defn = info.defn
        assert defn is not None and info.scope is not None
        if defn.base is None:
            info.base = self.builtins.default_base(defn.kind)
            return
        sym = info.scope.lookup(defn.base) or self.builtins.by_name().get(defn.base)
        if not isinstance(sym, ClassInfo):
            known = [n for n, s in info.scope.names.items() if isinstance(s, ClassInfo)]
            self.diags.error(defn.base_span, f"unknown base class '{defn.base}'{_did_you_mean(defn.base, known)}")
            self._broken_bases.add(id(info))
            info.base = self.builtins.default_base(defn.kind)
            return
        if sym.kind != defn.kind:
            self.diags.error(defn.base_span, f"{_KIND_NOUN[defn.kind]} cannot derive from {sym.kind} '{sym.name}'")
        info.base = sym

    def _check_inheritance_cycle(self, info: ClassInfo) -> None:
        seen = [info]
        cur = info.base
        while cur is not None:
            if cur is info:
                assert info.defn is not None
                chain = " -> ".join(c.name for c in seen + [info])
                self.diags.error(info.defn.base_span or info.defn.name_span, f"inheritance cycle: {chain}")
                self._broken_bases.add(id(info))
                info.base = None
                return
            if cur in seen:
                return
            seen.append(cur)
            cur = cur.base

    def _resolve_member_types(self, info: ClassInfo) -> None:
        defn = info.defn
        assert defn is not None and info.scope is not None
        for name, attr in info.attributes.items():
            if attr.type is None:
                self.diags.error(attr.span, f"attribute '{name}' needs 'returns <type>;'")
                info.attribute_types[name] = ANY
            else:
                info.attribute_types[name] = self.resolve_type(attr.type, info.scope)
        if defn.kind == "stack":
            tag = next((m for m in defn.members if isinstance(m, ast.Returns)), None)
            if tag is None or tag.type is None:
                if info.base is None or all(a.deck_item is None for a in info.base.ancestors()):
                    self.diags.error(defn.name_span, f"stack '{defn.name}' needs 'returns <interactable>;': the type of its cards")
            else:
                item = self.resolve_type(tag.type, info.scope)
                if isinstance(item, ClassType) and item.info.kind != "interactable":
                    self.diags.error(tag.type.span, f"a stack holds interactables, and '{item.info.name}' is {_KIND_NOUN.get(item.info.kind, item.info.kind)}")
                elif not isinstance(item, ClassType) and not is_any(item):
                    self.diags.error(tag.type.span, f"a stack holds interactables, not {item}")
                info.deck_item = item

    def _check_overrides(self, info: ClassInfo) -> None:
        defn = info.defn
        assert defn is not None
        base = info.base
        own_builtins = set(builtin_attributes(info, self.builtins)) | set(builtin_methods(info, self.builtins))
        for member in defn.members:
            if not isinstance(member, (ast.Attribute, ast.FunctionDef, ast.ActionDef)):
                continue
            name = member.name
            if name in own_builtins:
                self.diags.error(member.name_span, f"'{name}' is a built-in member of {_KIND_NOUN[defn.kind]}")
                continue
            if base is None:
                inherited = None
            elif base.find_attribute(name) is not None:
                inherited = "attribute"
            elif base.find_function(name) is not None:
                inherited = "function"
            elif base.find_action(name) is not None:
                inherited = "action"
            else:
                inherited = None
            if isinstance(member, ast.Attribute):
                if inherited is not None:
                    self.diags.error(member.name_span, f"'{name}' is already defined in base class {base.name}")
                continue
            kind = "function" if isinstance(member, ast.FunctionDef) else "action"
            if member.override:
                if inherited is None:
                    if id(info) in self._broken_bases:
                        continue  # the base's error says it all
                    self.diags.error(member.name_span, f"'override {kind} {name}' overrides nothing: no base class of {defn.name} defines '{name}'")
                elif inherited != kind:
                    self.diags.error(member.name_span, f"'{name}' is {'an' if inherited == 'action' or inherited == 'attribute' else 'a'} {inherited} in the base class; it cannot be overridden by {'an' if kind == 'action' else 'a'} {kind}")
            elif inherited is not None:
                self.diags.error(member.name_span, f"'{name}' hides the {inherited} of base class {base.name}; write 'override {kind} {name}'")

    # ================================================= pass 3: code
    def check_item(self, item, scope: Scope) -> None:
        if isinstance(item, (ast.ClassDef, ast.FunctionDef, ast.TurnDef)):
            self.bodies.check_class_name(item.name, item.name_span)
        if isinstance(item, ast.SetupDef):
            self.bodies.check_block(item.body, Env("setup", scope))
        elif isinstance(item, ast.FunctionDef):
            info = scope.own.get(item.name)
            if isinstance(info, FunctionInfo) and info.defn is item:
                self.check_function(info, None)
        elif isinstance(item, ast.TurnDef):
            self.check_turn(item, scope)
        elif isinstance(item, ast.ClassDef):
            info = scope.own.get(item.name)
            if isinstance(info, ClassInfo) and info.defn is item:
                self.check_class(info)

    def check_class(self, info: ClassInfo) -> None:
        defn = info.defn
        assert defn is not None and info.scope is not None
        for name, attr in info.attributes.items():
            if attr.value is not None:
                env = Env("attribute", info.scope, info)
                want = info.attribute_types.get(name, ANY)
                self.bodies.expect(attr.value, want, env, f"attribute '{name}' is {want}, and its value is")
        self.check_secrecy(info)
        for fn in info.functions.values():
            self.check_function(fn, info)
        for action in info.actions.values():
            self.check_action(action, info)
        for group in info.groups.values():
            self.check_group(group, info)
        if defn.kind == "stack":
            for d in (m for m in defn.members if isinstance(m, ast.Default)):
                self.bodies.check_block(d.body, Env("default", info.scope, info))

    def check_secrecy(self, info: ClassInfo) -> None:
        """`hidden` is for attributes only; `private` in a global object, a tile or a connection hides from everyone
        (nobody owns it), which `hidden` says plainly; secrecy in an event says nothing (events are never shown)."""
        defn = info.defn
        for action in defn.actions:
            if action.secrecy is not None and action.secrecy.kind == "hidden":
                self.diags.error(action.secrecy.span, f"an action is 'private' or public, not 'hidden': 'hidden' is for "
                                 f"attributes (action '{action.name}')",
                                 "'private action' shows its moves' inputs to the mover only")
        for attr in defn.attributes:
            if attr.secrecy is None:
                continue
            if defn.kind == "event":
                self.diags.warning(attr.secrecy.span, f"'{attr.secrecy.kind}' means nothing in an event: events are "
                                   "never shown to a seat")
            elif attr.secrecy.kind == "private" and info.visibility == "global":
                self.diags.warning(attr.secrecy.span, f"'private' in global class '{info.name}' hides '{attr.name}' "
                                   "from every seat: nobody owns a global object",
                                   "write 'hidden' to say so, or keep the secret in an object a player owns")
            elif attr.secrecy.kind == "private" and defn.kind in ("tile", "connection"):
                # a designer's first idea for a secret on a board (a ship on a square of its owner's ocean): a
                # square cannot be assigned, so its owners are none and the attribute is `hidden` in effect
                self.diags.warning(attr.secrecy.span, f"'private' in {defn.kind} '{info.name}' hides '{attr.name}' "
                                   f"from every seat: a {defn.kind} has no owner",
                                   "write 'hidden' to say so, or keep the secret in an object a player owns (a "
                                   "class, interactable, stack or board given with assign())")

    # --------------------------------------------------------- callables
    def _check_tags(self, items: list, allowed: set[str], what: str) -> None:
        seen: dict[str, Span] = {}
        for item in items:
            word = _TAG_WORD.get(type(item))
            if word is None:
                continue
            if word not in allowed:
                self.diags.error(item.span, f"'{word}' is not allowed in {what}")
                continue
            if word in ("effect", "prio", "returns"):
                if word in seen:
                    self.diags.error(item.span, f"duplicate '{word}' in {what}", f"first at {seen[word]}")
                seen.setdefault(word, item.span)

    def _check_inputs(self, inputs: list[ast.InputDecl], env: Env, in_function: bool) -> None:
        for inp in inputs:
            if inp.modifier == "function" and not in_function:
                self.diags.error(inp.span, "the 'function' modifier is only for function inputs")
            self.bodies.check_input(inp, env)

    def check_function(self, fn: FunctionInfo, owner: ClassInfo | None) -> None:
        defn = fn.defn
        what = f"function '{defn.name}'"
        self._check_tags(defn.items, {"input", "effect", "returns"}, what)
        if owner is None and defn.override:
            self.diags.error(defn.span, f"'override' needs a class: {what} is global")
        if defn.returns is None and not defn.override:
            self.diags.error(defn.name_span, f"{what} needs a 'returns' tag: 'returns <type>;', or 'returns;' when it gives nothing")
        ret = self.function_return_type(fn)
        env = Env("function", fn.scope, owner, ret)
        self._check_inputs(defn.inputs, env, in_function=True)
        effect = defn.effect
        if effect is not None:
            flow = self.bodies.check_block(effect.body, env, new_frame=True)
            if flow is not Flow.RETURNS and ret not in (VOID, ANY):
                self.diags.warning(
                    self.bodies._end_of(effect.body, effect.span),
                    f"{what} can end without returning a value (it then returns null)",
                )

    def check_action(self, action: ast.ActionDef, owner: ClassInfo) -> None:
        what = f"action '{action.name}'"
        self._check_tags(action.items, {"input", "effect", "require", "trigger", "prio"}, what)
        scope = owner.scope
        assert scope is not None
        env = Env("effect", scope, owner, VOID)
        unseen = {i.name: f"'{i.name}' is an input of {what}: its require and trigger blocks decide whether the "
                          "action may run before its inputs are chosen, so they cannot read them; test an input in "
                          "its filter (an input declared earlier is seen by the filters of later ones)"
                  for i in action.inputs}
        for req in action.requires:
            self.bodies.check_must_return(req.body, Env("require", scope, owner, BOOL, unseen=unseen), req.span,
                                          "require block")
        events: dict[str, Span] = {}
        fired_by: list[Type] = []
        for trig in action.triggers:
            event_t = self.resolve_event(trig, scope)
            fired_by.append(event_t)
            if trig.event in events:
                self.diags.error(trig.event_span, f"{what} already has a trigger on {trig.event}", f"first at {events[trig.event]}")
            events.setdefault(trig.event, trig.event_span)
            tenv = Env("trigger", scope, owner, BOOL, unseen=unseen)
            tenv.frames[-1]["event"] = _event_var(event_t, trig.event_span)
            self.bodies.check_must_return(trig.body, tenv, trig.span, "trigger")
        prio = action.prio
        if prio is not None:
            self.bodies.expect(prio.value, NUMBER, env, "'prio' needs a number, not")
        if fired_by:  # decision: the effect sees the event that fired it
            env.frames[-1]["event"] = _event_var(self._common_event(fired_by), action.span)
        self._check_inputs(action.inputs, env, in_function=False)
        if any(t.event == "PlayerChoiceEvent" for t in action.triggers):
            self._check_choosable(action, scope)
        if action.effect is not None:
            self.bodies.check_block(action.effect.body, env)

    def _check_choosable(self, action: ast.ActionDef, scope: Scope) -> None:
        """Warns of a move's input whose candidates cannot be listed (a number, a string): the runtime lists a
        move's candidates from the objects of a class, the players or the two bools, and stops with a runtime
        error the first time it lists this move's, which `tgpl check` would otherwise have passed."""
        for inp in action.inputs:
            if inp.modifier == "function":
                continue
            t = self.resolve_type(inp.type, scope, report=False)  # check_input reported it
            candidate = t.elem if isinstance(t, Collection) and t.kind == "List" else t
            if isinstance(candidate, ClassType) or candidate in (PLAYER, BOOL) or is_any(candidate):
                continue
            self.diags.warning(inp.span, f"input '{inp.name}' of move '{action.name}' is a {candidate}, which a "
                               "player cannot choose: a move's candidates are the objects of a class, the players "
                               "or true and false, so listing this move's is a runtime error",
                               "choose a tile or another object instead (give it number attributes such as X and "
                               "Y), or a player")

    def _common_event(self, types: list[Type]) -> Type:
        """The nearest event class every trigger's event derives from."""
        infos = [t.info for t in types if isinstance(t, ClassType)]
        if len(infos) != len(types):
            return ANY
        for candidate in infos[0].ancestors():
            if all(i.derives_from(candidate) for i in infos):
                return ClassType(candidate)
        return ClassType(self.builtins.event)

    def resolve_event(self, trig: ast.Trigger, scope: Scope) -> Type:
        sym = scope.lookup(trig.event) or self.builtins.by_name().get(trig.event)
        if isinstance(sym, ClassInfo) and sym.derives_from(self.builtins.event):
            return ClassType(sym)
        events = [n for n, s in scope.names.items() if isinstance(s, ClassInfo) and s.kind == "event"]
        events.append("PlayerChoiceEvent")
        if sym is None:
            self.diags.error(trig.event_span, f"unknown event '{trig.event}'{_did_you_mean(trig.event, events)}")
        else:
            self.diags.error(trig.event_span, f"'{trig.event}' is not an event")
        return ANY

    # ------------------------------------------------------------- turns
    def check_turn(self, turn: ast.TurnDef, scope: Scope) -> None:
        info = self.program.turns.get(turn.name)
        info = info if info is not None and info.defn is turn else TurnInfo(turn, scope)
        if not turn.phases:
            self.diags.error(turn.name_span, f"turn '{turn.name}' needs at least one phase")
        seen: dict[str, Span] = {}
        for phase in turn.phases:
            if phase.name in seen:
                self.diags.error(phase.name_span, f"duplicate phase '{phase.name}' in turn '{turn.name}'", f"first at {seen[phase.name]}")
            seen.setdefault(phase.name, phase.name_span)
            self.check_phase(phase, info, scope)
        defaults = [d for d in turn.items if isinstance(d, ast.Default)]
        for dup in defaults[1:]:
            self.diags.error(dup.span, f"duplicate 'default' in turn '{turn.name}'")
        for d in defaults[:1]:
            self.bodies.check_block(d.body, Env("turn-default", scope, None, PLAYER, turn=info))

    def check_phase(self, phase: ast.PhaseDef, turn: TurnInfo, scope: Scope) -> None:
        effects = [i for i in phase.items if isinstance(i, ast.Effect)]
        for dup in effects[1:]:
            self.diags.error(dup.span, f"duplicate 'effect' in phase '{phase.name}'")
        env = Env("effect", scope, None, VOID, turn=turn)
        env.frames.append({})
        if effects:
            for item in phase.items:
                if isinstance(item, ast.InputDecl):
                    self._check_inputs([item], env, in_function=False)
                elif not isinstance(item, ast.Effect):
                    self.diags.error(item.span, f"phase '{phase.name}' has an 'effect': its other tags can only be inputs")
            self.bodies.check_block(effects[0].body, env)
        else:
            body = ast.Block(phase.span, [i for i in phase.items if not isinstance(i, ast.Effect)])
            self.bodies.check_block(body, env, new_frame=False)
        self.bodies._close_frame(env)

    # ------------------------------------------------------------ boards
    def check_group(self, group: ast.GroupDef, board: ClassInfo) -> None:
        scope = board.scope
        assert scope is not None
        for word, kind in (("geometry", ast.GeometryTag), ("orientation", ast.OrientationTag), ("grid", ast.Grid), ("default", ast.Default)):
            tags = [i for i in group.items if isinstance(i, kind)]
            for dup in tags[1:]:
                self.diags.error(dup.span, f"duplicate '{word}' in group '{group.name}'")
        geometry = group.geometry
        if geometry is None:
            self.diags.error(group.name_span, f"group '{group.name}' needs a geometry: square, hex or graph")
            geo = "square"
        elif geometry.name not in GEOMETRIES:
            self.diags.error(geometry.span, f"unknown geometry '{geometry.name}'; expected square, hex or graph")
            geo = "square"
        else:
            geo = geometry.name
        orientation = group.orientation
        if geo == "hex" and orientation is None:
            self.diags.error(group.name_span, f"hex group '{group.name}' needs 'orientation row;' or 'orientation col;'")
        if orientation is not None:
            if geo != "hex":
                self.diags.error(orientation.span, "'orientation' applies to hex groups only")
            elif orientation.name not in ORIENTATIONS:
                self.diags.error(orientation.span, f"unknown orientation '{orientation.name}'; expected row or col")
        grid = group.grid
        if geo == "graph" and grid is not None:
            self.diags.error(grid.span, "a graph group has no grid: build its tiles and connections in 'default'")
        elif grid is not None:
            self.check_grid(grid, scope)
        elif group.default is None:
            self.diags.warning(group.name_span, f"group '{group.name}' has neither a grid nor a default block: it is empty")
        if group.default is not None:
            self.bodies.check_block(group.default.body, Env("default", scope, board))

    def check_grid(self, grid: ast.Grid, scope: Scope) -> None:
        widths = {len(row) for row in grid.rows}
        if len(widths) > 1:
            first = len(grid.rows[0])
            for i, row in enumerate(grid.rows):
                if len(row) != first:
                    self.diags.error(
                        row[0].span.to(row[-1].span),
                        f"grid row {i + 1} has {len(row)} tile{'s' * (len(row) != 1)} but row 1 has {first};"
                        " pad rows with blank tiles 'b'",
                    )
        for row in grid.rows:
            for cell in row:
                if cell.name == "b":
                    continue
                sym = scope.lookup(cell.name) or self.builtins.by_name().get(cell.name)
                if not isinstance(sym, ClassInfo):
                    tiles = [n for n, s in scope.names.items() if isinstance(s, ClassInfo) and s.kind == "tile"]
                    self.diags.error(cell.span, f"unknown tile '{cell.name}'{_did_you_mean(cell.name, tiles + ['b'])}")
                elif sym.kind != "tile":
                    self.diags.error(cell.span, f"'{cell.name}' is not a tile")


def _event_var(t: Type, span: Span):
    from tgpl.frontend.bodies import Var

    return Var("event", t, span, "event")


def check_program(program: Program, diags: Diagnostics) -> None:
    Checker(program, diags).run()


def _constant(e: ast.Expr) -> float | None:
    """The value of a number expression made of literals and `+ - * / %` (a `players` count), else None."""
    if isinstance(e, ast.NumberLit):
        return e.value
    if isinstance(e, ast.Unary) and e.op == "-":
        v = _constant(e.operand)
        return None if v is None else -v
    if isinstance(e, ast.Binary) and e.op in ("+", "-", "*", "/", "%"):
        a, b = _constant(e.left), _constant(e.right)
        if a is None or b is None or (e.op in "/%" and b == 0):
            return None
        return {"+": a + b, "-": a - b, "*": a * b, "/": a / b if b else 0.0, "%": a % b if b else 0.0}[e.op]
    return None


def _nested(ref: ast.TypeRef) -> list[ast.TypeRef]:
    return [ref, *(r for a in ref.args for r in _nested(a))]


def _keyed(ref: ast.TypeRef) -> bool:
    """Whether a `Table<K, V>` (as other languages write a map) is written in this type."""
    return any(r.name == "Table" and len(r.args) == 2 for r in _nested(ref))


def _one_typed(ref: ast.TypeRef) -> str:
    """The type as TGPL writes it: each `Table<K, V>` as `Table<V>` (the builder keeps V first)."""
    if not ref.args:
        return ref.name
    return f"{ref.name}<{_one_typed(ref.args[0])}>"
