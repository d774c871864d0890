"""PettingZoo AEC bookkeeping written once for every game.

``CardAECEnv`` is a one-row ``CardVectorEnv`` behind PettingZoo's ``AECEnv`` API, a client of
the engine's public one-row interface (``core.vector``: ``step_row``, ``row_info``, ...): agents
``"player_0" .. "player_{P-1}"`` (agent ``i`` sits in seat ``i``), observations
``{"observation": float32 vector, "action_mask": int8 vector}``, ``Discrete`` actions.

Rewards arrive on the step that ends the episode, for every agent at once; then every agent is
terminated and PettingZoo's dead-step protocol applies (``step(None)`` for each).

Order is enforced by the env itself: ``step``, ``observe``, ``last``, ``render``, ``scene``,
``picture``, ``record`` and ``determinize`` before ``reset`` raise ``RuntimeError``, ``step``
once every agent has stepped out raises ``ValueError`` and ``last`` then ``GameOverError`` (a
``RuntimeError`` and the ``KeyError`` PettingZoo's ``AECEnv.last`` raises there). Unknown keys
in ``reset``'s ``options`` are ignored with a warning (PettingZoo's ``api_test`` passes one);
``deck``, ``dealer`` and ``episode`` are validated (``episode``: see the batched engine,
``cardenvs.core.vector``; here in ``0..2**44 - 1``, ``core.rng.MAX_EPISODE``: a larger one would
deal a smaller one's game, so after that episode a ``reset()`` without a seed raises
``ValueError`` too).

Rendering: ``render_mode="ansi"`` returns the game's text, ``"human"`` prints it after every
step, ``"rgb_array"`` returns a picture of the table (``core.picture``) in the view
``render_seat`` names (None: open, a seat, ``"current"``: the seat to act).

The constructor takes the game's config options only: ``num_envs``, ``seed``, ``autoreset`` and
``validate`` belong to the batched engine (``cardenvs.make_vector``) and raise ``ValueError``
(the seed of an AEC env is given to ``reset``).

Illegal actions follow PettingZoo's classic convention (``TerminateIllegalWrapper``): with
``illegal_action="penalize"`` (default) a masked-out action ends the episode, the offending agent
gets ``-1``, the others ``0``, and ``infos[agent]["illegal_move"]`` is True. With
``illegal_action="raise"`` a ``ValueError`` names the action and the legal ones and the game is
left unchanged. An action outside the action space always raises ``ValueError``.

Records. ``record()`` returns the game so far as a JSON-able dict, which ``cardenvs.replay``
replays and checks:

- ``"game"``, ``"version"``: the id's parts (``"piquet"``, ``0`` for ``piquet-v0``);
- ``"config"``: the game's config as a dict (``Config.to_dict()``);
- ``"seed"``: the seed of the ``reset`` that started the current seed's games (drawn from the OS
  when ``reset`` never had one);
- ``"episode"``: the game's index among the games played since that seed, ``k`` for the game of
  the ``k``-th ``reset()`` without a seed after ``reset(seed=...)``; present only when not 0, so
  the record of a seed's first game (and every record written before the field existed) has
  none, and a record without it is episode 0. Replay resets with ``seed`` and
  ``options={"episode": k, "deck": ..., "dealer": ...}``;
- ``"deals"``: one dict per deal, in order: ``"deck"`` (the deal's cards in dealing order, card
  strings), ``"dealer"`` (seat), ``"actions"`` (``[seat, action name]`` pairs in order),
  ``"points"`` (per seat, once the deal is over) and the game's own extras (``deal_extras``);
- ``"result"``: ``None`` until the game ends, then the game's result dict, or
  ``{"illegal_move": seat, "action": id}`` when a penalized illegal move ended it.

``copy.deepcopy`` and ``pickle`` give an independent env that plays on exactly as the original
would; ``copy.copy`` raises ``TypeError`` (a shallow copy would share the game state).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import NamedTuple

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from .checks import brief, check_int
from .rng import MAX_EPISODE, check_seed
from .scene import resolve_view
from .vector import CardVectorEnv, engine_class

ILLEGAL_ACTION_MODES = ("penalize", "raise")
RENDER_MODES = (None, "ansi", "human", "rgb_array")
RESET_OPTIONS = ("deck", "dealer", "episode")
# keyword arguments of the batched engine that an AEC env does not take, and what to do instead
ENGINE_ONLY = {
    "num_envs": "num_envs is an option of cardenvs.make_vector (the batched engine), not of "
    "cardenvs.make (an AEC env plays one game)",
    "seed": "an AEC env takes its seed in reset(seed=...), not in cardenvs.make",
    "autoreset": "autoreset is an option of cardenvs.make_vector (the batched engine), not of "
    "cardenvs.make",
    "validate": "validate is an option of cardenvs.make_vector (the batched engine), not of "
    "cardenvs.make (an AEC env always checks actions: see illegal_action)",
}


class GameOverError(RuntimeError, KeyError):
    """``last()`` once the game is over and every agent has stepped out. A ``KeyError`` too:
    PettingZoo's own ``AECEnv.last`` raises one there (a bare ``KeyError`` of the agent's name),
    so code that catches that still does; its message is plain text (not a quoted key)."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class CardAECEnv(AECEnv):
    """The PettingZoo AEC front end of a game (see the module docstring).

    Args:
        render_mode: ``None``, ``"ansi"`` (``render()`` returns text), ``"human"`` (prints it
            after every step) or ``"rgb_array"`` (``render()`` returns a picture of the table,
            ``core.picture``).
        illegal_action: ``"penalize"`` (PettingZoo classic) or ``"raise"``.
        render_seat: whose view ``"rgb_array"`` draws: None the open view (every card, the
            default), a seat number that seat's view (the others' hands face down),
            ``"current"`` the view of the seat to act (the open view once the game is over).
        **config: the game's ``Config`` options.
    """

    vector_cls: type[CardVectorEnv]

    def __init__(
        self,
        render_mode: str | None = None,
        illegal_action: str = "penalize",
        render_seat=None,
        **config,
    ):
        super().__init__()
        if render_mode not in RENDER_MODES:
            raise ValueError(
                f"render_mode must be one of {list(RENDER_MODES)}, got {brief(render_mode)}"
            )
        if illegal_action not in ILLEGAL_ACTION_MODES:
            raise ValueError(
                f"illegal_action must be one of {list(ILLEGAL_ACTION_MODES)}, "
                f"got {illegal_action!r}"
            )
        for key in ENGINE_ONLY:
            if key in config:
                raise ValueError(ENGINE_ONLY[key])
        self.render_mode = render_mode
        self.illegal_action = illegal_action
        game = self.vector_cls.game
        checked = game.config_cls.from_kwargs(**config)
        try:
            resolve_view(render_seat, game.num_seats(checked), 0)
        except ValueError as e:
            raise ValueError(f"render_seat: {e}") from None
        self.render_seat = render_seat
        # a cold numba cache: the engine plays on plain Python while its kernels compile and
        # owns the background compile (core.coldstart; ``warmup``, ``poll_warmup``)
        self._engine = self.vector_cls(1, autoreset=False, validate=False, **config)
        self.game = game
        self.config = self._engine.config
        p = self._engine.num_seats
        self.possible_agents = [f"player_{i}" for i in range(p)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        # the agents grouped by the side they play for (partners share every reward)
        self.sides = tuple(
            tuple(self.possible_agents[p] for p in side) for side in self._engine.sides
        )
        obs_space = spaces.Dict(
            {
                "observation": self._engine.single_observation_space,
                "action_mask": spaces.Box(0, 1, (self.game.num_actions,), dtype=np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {
            a: spaces.Discrete(self.game.num_actions) for a in self.possible_agents
        }
        self._record = None
        self.agents = []
        self.rewards, self._cumulative_rewards, self.infos = {}, {}, {}
        self.terminations, self.truncations = {}, {}

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.game.env_id}, config={self.config})"

    def __getstate__(self) -> dict:
        """Pickle and deep copy: everything but ``game`` (the engine class's ``GameDef``, taken
        again from the copied engine; the engine pickles itself: ``CardVectorEnv``)."""
        return {k: v for k, v in self.__dict__.items() if k != "game"}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self.game = self._engine.game

    def __copy__(self):
        raise TypeError(
            f"{type(self).__name__} cannot be shallow-copied (copy.copy): the copy would share "
            "the game state with the original; use copy.deepcopy(env) (or pickle) for an "
            "independent copy"
        )

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    # -- names ---------------------------------------------------------------------------------
    def action_name(self, action: int) -> str:
        """Name of an action id, e.g. ``"discard 7H"``."""
        return self._engine.action_name(action)

    def action_id(self, name: str) -> int:
        """Action id of a name; inverse of ``action_name``."""
        return self._engine.action_id(name)

    def legal_actions(self) -> list[int]:
        """Legal action ids of the agent to act (empty once the episode has ended)."""
        if self._ended():
            return []
        return np.flatnonzero(self._engine.action_mask[0]).tolist()

    # -- PettingZoo API ------------------------------------------------------------------------
    def reset(self, seed=None, options=None):
        if options is not None and not isinstance(options, dict):
            raise ValueError(
                f"options must be a dict with keys {list(RESET_OPTIONS)}, got {brief(options)}"
            )
        if options:
            unknown = sorted(set(options) - set(RESET_OPTIONS), key=repr)  # keys of any type
            if unknown:
                import gymnasium

                gymnasium.logger.warn(
                    f"reset ignores unknown option(s) {brief(unknown)}; known: "
                    f"{list(RESET_OPTIONS)}"
                )
                options = {k: v for k, v in options.items() if k in RESET_OPTIONS}
        if seed is not None:
            check_seed(seed)  # one game: one int seed (the batched engine also takes one per row)
        self._check_episode(seed, options)
        self._poll_warmup()
        self._engine.reset(seed=seed, options=options)
        row = self._engine.row_info(0)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[row.current]
        self._record = {
            "game": self.game.name,
            "version": self.game.version,
            "config": self.config.to_dict(),
            "seed": self._engine.seed,
        }
        if row.episode:  # see the module docstring: absent for a seed's first game
            self._record["episode"] = row.episode
        self._record |= {"deals": [], "result": None}
        self._open_deal(row.dealer)

    def _check_episode(self, seed, options) -> None:
        """``ValueError`` for an episode beyond ``MAX_EPISODE`` (it would deal a smaller one's
        game: ``core.rng``), given or next (a ``reset()`` without a seed after the last one)."""
        if options and "episode" in options:
            check_int(options["episode"], "options['episode']", 0, MAX_EPISODE)
        elif seed is None and self._record is not None:
            if self._engine.row_info(0).episode >= MAX_EPISODE:
                raise ValueError(
                    f"this seed's last game (episode {MAX_EPISODE}) was played: an episode is in "
                    f"0..{MAX_EPISODE} (a larger one would deal a smaller one's game); reset "
                    "with a new seed"
                )

    def last(self, observe: bool = True):
        if self._record is None:
            raise RuntimeError("call reset() before last()")
        if not self.agents:
            raise GameOverError(
                "the game is over: every agent has stepped out (env.agents is empty); call "
                "reset() to play again"
            )
        return super().last(observe)

    def observe(self, agent):
        if self._record is None:
            raise RuntimeError("call reset() before observe()")
        eng = self._engine
        if agent == self.agent_selection and not self._ended():
            # the agent to act (the engine's current seat): the engine wrote its observation
            return {
                "observation": eng.observation[0].copy(),
                "action_mask": eng.action_mask[0].copy(),
            }
        return {
            "observation": eng.observe_row(self.agent_name_mapping[agent]),
            "action_mask": np.zeros(self.game.num_actions, np.int8),
        }

    def step(self, action):
        if self._record is None:
            raise RuntimeError("call reset() before step()")
        if not self.agents:
            raise ValueError("the game is over and every agent has stepped out; call reset()")
        if self._engine.warmup is not None:  # a cold cache: plain Python until the kernels compile
            self._poll_warmup()
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if isinstance(action, str):  # a name: say where its id comes from
            name = brief(action)
            raise ValueError(
                f"{agent}: action must be an integer in 0..{self.game.num_actions - 1} (an "
                f"action id), got the name {name}: env.unwrapped.action_id({name}) gives its id"
            )
        if (
            action is None
            or isinstance(action, bool)
            or not isinstance(action, (int, np.integer))
            or not 0 <= action < self.game.num_actions
        ):
            raise ValueError(
                f"{agent}: action must be an integer in "
                f"0..{self.game.num_actions - 1}, got {action!r}"
            )
        action = int(action)
        seat = self.agent_name_mapping[agent]
        self._cumulative_rewards[agent] = 0.0
        eng = self._engine
        if not eng.action_mask[0, action]:
            msg = eng.illegal_message(0, action).replace("row 0: ", f"{agent}: ")
            if self.illegal_action == "raise":
                raise ValueError(msg)
            self._end({a: 0.0 for a in self.agents} | {agent: -1.0})
            self.infos[agent]["illegal_move"] = True
            self._record["result"] = {"illegal_move": seat, "action": action}
            return
        self._record["deals"][-1]["actions"].append([seat, self.game.action_names[action]])
        deal_ended, current = eng.step_row(action)
        over = current < 0  # no seat to act: the game is over
        if deal_ended:
            self._close_deal()
            if not over:
                self._open_deal(eng.row_info(0).dealer)
        if over:
            rew = eng.rewards[0]
            self._record["result"] = eng.game.result(eng.state, 0, self.config)
            self._end({a: float(rew[i]) for i, a in enumerate(self.agents)})
        else:
            self.agent_selection = self.possible_agents[current]
            self.rewards = {a: 0.0 for a in self.agents}
        if self.render_mode == "human":
            self.render()

    def _over(self) -> bool:
        """The game has reached its end by the rules."""
        return bool(self._engine.terminated[0])

    def _ended(self) -> bool:
        """The episode has ended: by the rules, or by an illegal move."""
        return self._over() or any(self.terminations.values()) or not self.agents

    def _end(self, rewards):
        self.rewards = rewards
        self.terminations = {a: True for a in self.agents}
        self._accumulate_rewards()

    def _open_deal(self, dealer: int):
        eng = self._engine
        self._record["deals"].append(
            {"deck": eng.game.deck_strings(eng.state, 0), "dealer": dealer, "actions": []}
        )

    def _close_deal(self):
        eng = self._engine
        deal = self._record["deals"][-1]
        deal["points"] = eng.deal_points(0)
        if eng.game.deal_extras is not None:
            deal.update(eng.game.deal_extras(eng.state, 0, self.config))

    @property
    def _warmup(self):
        """The background compile of a cold cache (``core.coldstart.Warmup``) that the engine
        plays plain Python through, or None: the engine's own."""
        return self._engine.warmup

    def _poll_warmup(self, wait: bool = False) -> None:
        """Switch to the compiled kernels once the background compile has finished (``wait``:
        wait for it first); see ``core.coldstart``. Nothing to do on a warm cache. The engine's
        ``_poll_warmup``, asked on every call (a plain step takes 0.3-0.5 ms, the poll a few
        microseconds: ``coldstart.POLL_SECONDS``)."""
        self._engine.poll_warmup(wait, every=0.0, why=" (search runs on them)")

    # -- search support (cardenvs.core.sim) -----------------------------------------------------
    def simulator(self):
        """A ``Simulator`` for copies of this game's state (clone, determinize, step)."""
        from .sim import Simulator

        self._poll_warmup(wait=True)  # search runs on the compiled kernels
        return Simulator(self.game, self.config)

    def state_copy(self):
        """A one-row copy of the live state; stepping it never touches this env."""
        from .sim import Simulator

        self._poll_warmup(wait=True)  # a state for the compiled kernels (narrow arrays)
        return Simulator.copy_row(self._engine.state, 0)

    def determinize(self, seat: int, rng=None):
        """A copy of the live state in which what ``seat`` cannot see (other hands, the stock
        order, ...) is redrawn consistently with everything ``seat`` has observed: its
        observation of the copy equals its observation of the game.

        Args:
            seat: the seat whose information is kept.
            rng: a ``numpy.random.Generator`` (default: a fresh unseeded one).
        """
        import numpy as np

        if self._record is None:
            raise RuntimeError("call reset() before determinize()")
        rng = np.random.default_rng() if rng is None else rng
        return self.simulator().determinize(self._engine.state, seat, rng)

    def scene(self, seat=None) -> dict:
        """The scene of the game (``core.scene``: a JSON-able dict of what is on the table) as
        ``seat`` sees it: None the open view, a seat number that seat's view, ``"current"`` the
        view of the seat to act (the open view once the game is over)."""
        if self._record is None:
            raise RuntimeError("call reset() before scene()")
        return self._engine.scene(0, seat)

    def picture(self, seat=None) -> np.ndarray:
        """The table drawn as an RGB image (``uint8``, shape ``core.picture.SHAPE``) as ``seat``
        sees it (as for ``scene``)."""
        from .picture import draw

        return draw(self.scene(seat))

    def render(self):
        if self._record is None:
            raise RuntimeError("call reset() before render()")
        if self.render_mode is None:
            import gymnasium

            gymnasium.logger.warn("render() called without a render_mode; pass render_mode")
            return None
        if self.render_mode == "rgb_array":
            return self.picture(self.render_seat)
        text = self._engine.render(0)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self):
        pass

    # -- records -------------------------------------------------------------------------------
    def record(self) -> dict:
        """The JSON-able record of the game so far (the format: see the module docstring)."""
        if self._record is None:
            raise RuntimeError("call reset() before record()")
        return json.loads(json.dumps(self._record))


class FrontEnds(NamedTuple):
    """A game's front ends (``front_ends``), what its package binds as ``FRONT_ENDS``."""

    vector: type[CardVectorEnv]  # the batched engine class (``core.vector.engine_class``)
    aec: type[CardAECEnv]  # the PettingZoo AEC env class
    env: Callable  # PettingZoo's constructor, ``env(**kwargs)``


def front_ends(game, prefix: str, module: str, title: str) -> FrontEnds:
    """The batched engine class, the AEC env class and the ``env`` constructor of ``game``: every
    game's front ends come from here (a game package calls it once, at import, and binds the
    result as ``FRONT_ENDS``, where ``cardenvs.registry.classes`` finds it).

    ``prefix`` names the classes (``<prefix>VectorEnv``, ``<prefix>Env``), ``module`` is the
    defining module's ``__name__`` (so the classes pickle) and ``title`` goes in the docstrings.
    """
    vector_cls = engine_class(game, f"{prefix}VectorEnv", module, title)
    env_cls = type(
        f"{prefix}Env",
        (CardAECEnv,),
        {
            "metadata": {
                "render_modes": ["human", "ansi", "rgb_array"],
                "name": f"{game.name}_v{game.version}",
                "is_parallelizable": False,
            },
            "vector_cls": vector_cls,
            "__module__": module,
            "__doc__": f"{title} as a PettingZoo AEC env.",
        },
    )

    def env(**kwargs):
        """PettingZoo-style constructor (the env enforces call order itself; not wrapped)."""
        return env_cls(**kwargs)

    env.__module__ = module
    return FrontEnds(vector_cls, env_cls, env)
