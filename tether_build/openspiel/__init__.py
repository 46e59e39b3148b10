"""The Last Tether as an OpenSpiel game: `import tether_build.openspiel` registers it with
`pyspiel` (the optional extra `openspiel`: `pip install -e .[openspiel]`) under the short
name `tether`:

    game = pyspiel.load_game("tether", {"players": 4, "seed": 7})

Parameters: `players` (2-6), `seed` (the setup's seed: board, decks, dice; -1, the
default: the first move is chance's, one of SEEDS equally likely setup seeds), `options` (rules options as
"name:value;name:value", e.g. "initiative:second;lead:fixed"; docs/rules-options.md) and
`content` (the content folder, compiled when the game is loaded; `use_rules(rules)` sets a
Ruleset instead, e.g. in tests).

It is the state API of engine/state_api.py: sequential (the Action Step in turn-based form,
each seat's choice hidden from the others until the reveal), imperfect information,
explicit chance at one node only: the deal of the setup seed, hidden from every seat. The
dice, shuffles and draws after it come from that seed's stream inside the rules (in the
native engine's order, draw for draw): the world the seed deals is what every seat is
uncertain about, and `resample_from_infostate` deals another one consistent with what the
seat knows. (OpenSpiel's SAMPLED_STOCHASTIC mode would say the same more directly, but
pyspiel's `random_sim_test` then asks the game for its RNG state, which a Python game cannot
provide.) Returns 1 shared among the winners (constant
sum 1), stable action ids below 2**20 (a card with its locked targets is one action).
Information state and observation are strings (JSON) and tensors (engine/tensors.py: a
fixed-size float vector per player count; the information state tensor summarises the
seat's own past answers by kind, it is not a perfect-recall encoding).

`tether_native` is the same game on the native engine's state (engine/native/nstate.py:
the same action ids and games, move for move), registered when the native engine is built.
Its observations and information states are the Python state's, string for string and
tensor for tensor, built from the seat view the native engine gives (nview.cpp: only what
the seat may know); its `resample_from_infostate` deals the hidden things in the native
engine, from what the seat knows.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pyspiel

from ..engine.options import Options
from ..engine.state_api import NUM_ACTIONS, new_state
from ..engine.tensors import information_state_size, observation_size

SHORT_NAME = "tether"
MAX_GAME_LENGTH = 100_000   # decisions: far above any game to the round cap
SEEDS = 1024                # chance's setup seeds (seed -1)
DEFAULTS = {"players": 2, "seed": -1, "options": "", "content": "content"}
_RULES: dict[str, object] = {}   # content folder -> Ruleset
_USE: list = []                  # a Ruleset set by use_rules (overrides `content`)

def _game_type(short_name: str, long_name: str, observations: bool):
    """The game's OpenSpiel type (both registrations): turn-based (the Action Step's secret
    choices one after another), imperfect information, 2-6 players; `observations`: whether
    the states give observation and information-state strings and tensors."""
    return pyspiel.GameType(
        short_name=short_name,
        long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=6,
        min_num_players=2,
        provides_information_state_string=observations,
        provides_information_state_tensor=observations,
        provides_observation_string=observations,
        provides_observation_tensor=observations,
        parameter_specification=DEFAULTS,
    )


GAME_TYPE = _game_type(SHORT_NAME, "The Last Tether", observations=True)


def use_rules(rules) -> None:
    """Play games with this Ruleset (None: compile the `content` parameter's folder)."""
    _USE[:] = [] if rules is None else [rules]


def parse_options(text: str) -> Options:
    """Rules options from "name:value;name:value" (ValueError names a bad one)."""
    values = {}
    for part in filter(None, (x.strip() for x in text.split(";"))):
        name, sep, value = part.partition(":")
        if not sep:
            raise ValueError(f"rules option {part!r}: expected name:value")
        values[name.strip()] = value.strip()
    return Options.from_dict(values)


def _rules(content: str):
    if _USE:
        return _USE[0]
    got = _RULES.get(content)
    if got is None:
        from ..cli.engine import compiled_files
        from ..engine.ruleset import Ruleset
        got = _RULES[content] = Ruleset.from_compiled(compiled_files(Path(content)))
    return got


class TetherGame(pyspiel.Game):
    """The Last Tether for OpenSpiel (see the module docstring)."""

    game_type = GAME_TYPE   # the registration this class is made for

    def __init__(self, params=None):
        params = {**DEFAULTS, **(params or {})}
        players = int(params["players"])
        if not 2 <= players <= 6:
            raise ValueError(f"players={players}: the game takes 2-6")
        self.players, self.seed = players, int(params["seed"])
        self.opts = parse_options(str(params["options"]))
        self.rules = _rules(str(params["content"]))
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS, max_chance_outcomes=SEEDS, num_players=players,
            min_utility=0.0, max_utility=1.0, utility_sum=1.0,
            max_game_length=MAX_GAME_LENGTH)
        super().__init__(self.game_type, info, params)

    def new_initial_state(self):
        """The game set up from `seed`, waiting at its first decision; with seed -1,
        chance's node that deals the setup seed."""
        return TetherSpielState(self)

    def state_for(self, seed: int):
        """The engine state of a game set up from `seed`."""
        return new_state(self.rules, self.players, seed, None, self.opts,
                         whole_plays=[True] * self.players)

    def make_py_observer(self, iig_obs_type=None, params=None):
        """The information state (perfect recall) or the observation, as a string and as
        a tensor (engine/tensors.py)."""
        return _Observer(self, iig_obs_type)


class TetherSpielState(pyspiel.State):
    """A pyspiel state around one engine/state_api.TetherState (`.inner`)."""

    def __init__(self, game):
        super().__init__(game)
        self.game = game
        self.inner = None if game.seed < 0 else game.state_for(game.seed)

    def current_player(self):
        """The seat to act, CHANCE before the setup seed is dealt, or TERMINAL."""
        if self.inner is None:
            return pyspiel.PlayerId.CHANCE
        return self.inner.current_player()

    def is_chance_node(self):
        """Only before the setup seed is dealt."""
        return self.inner is None

    def chance_outcomes(self):
        """The SEEDS setup seeds, equally likely."""
        return [(k, 1.0 / SEEDS) for k in range(SEEDS)] if self.inner is None else []

    def _legal_actions(self, player):
        if self.inner is None:
            return list(range(SEEDS)) if player == pyspiel.PlayerId.CHANCE else []
        return self.inner.legal_actions(player)

    def _apply_action(self, action):
        if self.inner is None:
            self.inner = self.game.state_for(int(action))
        else:
            self.inner.apply_action(int(action))

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            return f"setup seed {action}"
        st = self.inner
        if not st.is_terminal() and player == st.current_player():
            ids = st.action_ids()
            if action in ids:
                words = st.labels() if hasattr(st, "labels") else st.asked()[2]
                return words[ids.index(action)]
        return f"action {action}"

    def is_terminal(self):
        """Has the game ended."""
        return self.inner is not None and self.inner.is_terminal()

    def returns(self):
        """1 shared among the winners, 0 for the others."""
        if self.inner is None:
            return [0.0] * self.game.players
        return self.inner.returns()

    def resample_from_infostate(self, player_id, probability_sampler):
        """A copy with what `player_id` cannot see dealt again (sampler: uniform [0, 1))."""
        c = self.clone()
        if c.inner is not None:   # (at an Action Step choice: dealt as the step started)
            c.inner = self.inner.resample_from_infostate(player_id, probability_sampler)
        return c

    def __str__(self):
        return "chance deals the setup seed" if self.inner is None else str(self.inner)


class _Observer:
    """Observation or information state as a string and as a tensor."""

    def __init__(self, game, iig_obs_type):
        self.recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        size = (information_state_size if self.recall else observation_size)(
            game.rules, game.players)
        self.tensor = np.zeros(size, np.float32)
        self.dict: dict = {"observation": self.tensor}

    def set_from(self, state, player):
        """Fill the tensor with the seat's information state or observation (zeros
        before the setup seed is dealt)."""
        if state.inner is None:
            self.tensor.fill(0.0)
            return
        fill = (state.inner.information_state_tensor if self.recall
                else state.inner.observation_tensor)
        self.tensor[:] = fill(player)

    def string_from(self, state, player):
        """The seat's information state (perfect recall) or observation, as JSON."""
        if state.inner is None:
            return "the game is not set up yet"
        if self.recall:
            return state.inner.information_state_string(player)
        return state.inner.observation_string(player)


pyspiel.register_game(GAME_TYPE, TetherGame)


NATIVE_NAME = "tether_native"
NATIVE_TYPE = _game_type(NATIVE_NAME, "The Last Tether (native engine)", observations=True)


class TetherNativeGame(TetherGame):
    """The Last Tether for OpenSpiel on the native engine's state."""

    game_type = NATIVE_TYPE

    def state_for(self, seed: int):
        """The native engine state of a game set up from `seed`."""
        from ..engine.native.nstate import new_native_state
        return new_native_state(self.rules, self.players, seed, None, self.opts)


def _register_native() -> None:
    from ..engine import native
    if native.available():
        pyspiel.register_game(NATIVE_TYPE, TetherNativeGame)


_register_native()
