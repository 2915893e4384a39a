"""``PolicyAgent``: a trained model as an agent, e.g. ``policy:path=model.zip`` in the arena: an SB3
(Maskable)PPO zip, a self-play ``policy.pt`` / ``checkpoint.pt`` from ``train --algo selfplay``, or an az network
(``az.pt`` from ``train --algo az`` or ``imitate``) played by its policy head alone, without search.

Loading a file never runs code from it. Torch files are read with ``weights_only`` (tensors and plain values).
An SB3 zip keeps some entries of its ``data`` JSON as cloudpickled objects (the spaces, the schedules, the policy
class): ``load_sb3`` rebuilds each from the game and the entry's readable description and hands them to SB3 as
``custom_objects``, so SB3 unpickles none of them (its ``.pth`` files it reads with ``weights_only``); an entry it
cannot rebuild is refused, naming it.
"""

from __future__ import annotations

import json
import os
import re
import zipfile
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:  # sb3-contrib is the train extra, imported when a model is loaded
    from sb3_contrib import MaskablePPO


def _model_file(path) -> str:
    """The saved model's file: ``path`` itself or ``path + ".zip"`` (SB3 adds the suffix when it saves);
    a missing file is a clear ValueError naming the path given (not SB3's ``model.zip.zip``)."""
    path = os.fspath(path)
    for candidate in (path, path + ".zip"):
        if os.path.isfile(candidate):
            return candidate
    raise ValueError(
        f"policy agent: no saved model at {path!r} (nor {path + '.zip'!r}); "
        "pass path=<model.zip> written by `tabletop-zoo train` or model.save()"
    )


class PolicyAgent:
    """Plays the model's action for its seat's observation, restricted to the legal mask."""

    name = "policy"

    def __init__(
        self,
        path: str | None = None,
        model=None,
        deterministic: bool = True,
        seed: int | None = None,
        game_id: str | None = None,
    ) -> None:
        if model is None:
            if not path:
                raise ValueError("policy agent needs path=<model.zip> (a saved MaskablePPO model)")
            path = _model_file(path)
            model = _load_torch(path) if _is_torch_file(path) else load_sb3(path, game_id)
        trained_for = getattr(model, "game_id", None)  # self-play and az files name their game; SB3 zips do not
        if game_id is not None and trained_for is not None and trained_for != game_id:
            raise ValueError(f"policy agent: {path or 'the model'} was trained for {trained_for!r}, not {game_id!r}")
        self.model = model
        self.deterministic = bool(deterministic)
        if seed is not None:
            self.model.set_random_seed(int(seed) % 2**32)

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """The model's action for this observation, among the legal ones (``deterministic``: its most likely)."""
        action, _ = self.model.predict(
            observation, action_masks=np.asarray(action_mask, bool), deterministic=self.deterministic
        )
        return int(action)


def _is_torch_file(path: str) -> bool:
    """Self-play and az files are torch pickles (``.pt``); SB3 models are zip archives."""
    return str(path).endswith(".pt")


def _load_torch(path: str):
    """A self-play policy or checkpoint, or an az network's policy head (torch is imported only when a policy
    is used); tensors and plain values only."""
    from tabletop_zoo.agents.az.network import AZ_FORMAT, AZPolicy, az_from_blob, load_plain
    from tabletop_zoo.agents.policy_network import load_policy

    try:
        data = load_plain(path, "a self-play policy, checkpoint or az network")
    except ValueError as e:
        raise ValueError(f"policy agent: {e}") from None
    found = data.get("format") if isinstance(data, dict) else None
    if found == AZ_FORMAT:
        net, blob = az_from_blob(data, path)
        return AZPolicy(net, blob["game"], blob["meta"])
    try:
        return load_policy(path, data)
    except ValueError as e:
        raise ValueError(f"policy agent: {e}, nor an az network ({AZ_FORMAT!r})") from None


def load_sb3(path: str | os.PathLike, game_id: str | None) -> MaskablePPO:
    """A MaskablePPO zip, loaded without unpickling anything: every cloudpickled entry of its ``data`` is rebuilt
    for ``game_id`` (``sb3_custom_objects``) and passed to SB3 as ``custom_objects``."""
    from sb3_contrib import MaskablePPO  # torch is imported only when a policy is used

    if game_id is None:
        raise ValueError(
            f"policy agent: {path} is an SB3 model, whose spaces are rebuilt from the game it plays (never "
            "unpickled): pass the game (game_id=...)"
        )
    try:
        with zipfile.ZipFile(path) as archive:
            data = json.loads(archive.read("data"))
    except (zipfile.BadZipFile, KeyError, ValueError) as e:
        raise ValueError(f"policy agent: {path} is not an SB3 model zip with a data entry ({e})") from None
    return MaskablePPO.load(path, device="cpu", custom_objects=sb3_custom_objects(path, data, game_id))


def sb3_custom_objects(path, data: dict, game_id: str) -> dict:
    """Every ``:serialized:`` entry of an SB3 zip's ``data``, rebuilt: spaces from the game's single-seat
    wrapper (checked against the entry's description), constant schedules from their value, classes from
    MaskablePPO's own. Anything else is refused with one line naming the file and the entry."""
    rebuilt = {}
    for key, entry in data.items():
        if isinstance(entry, dict) and ":serialized:" in entry:
            rebuild = _SB3_ENTRIES.get(key)
            if rebuild is None:
                _refuse(path, key, entry, "no rebuilder for this entry")
            rebuilt[key] = rebuild(path, key, entry, game_id)
    return rebuilt


def _refuse(path, key: str, entry: dict, why: str):
    raise ValueError(
        f"policy agent: {path}: entry {key!r} ({entry.get(':type:')}) is a pickled object that is never unpickled "
        f"(it could run code) and cannot be rebuilt: {why}; if you trust the file, load it yourself "
        "(MaskablePPO.load) and pass model="
    )


def _spaces(game_id: str):
    from tabletop_zoo.envs.wrappers import SingleSeatEnv

    env = SingleSeatEnv(game_id)
    return env.observation_space, env.action_space


def _described(entry: dict) -> str:
    """A space entry as SB3's JSON describes it (readable fields only)."""
    fields = ("_shape", "dtype", "low_repr", "high_repr", "n")
    return f"{entry.get(':type:')} " + ", ".join(f"{k}={entry[k]}" for k in fields if k in entry)


def _observation_space(path, key, entry, game_id):
    space = _spaces(game_id)[0]
    found = (
        entry.get(":type:"),
        entry.get("_shape"),
        entry.get("dtype"),
        entry.get("low_repr"),
        entry.get("high_repr"),
    )
    wanted = (f"<class '{type(space).__module__}.{type(space).__qualname__}'>", list(space.shape), str(space.dtype))
    # the bounds as SB3 wrote them: the layout tables' (since #49), or 0 and infinity (models saved before)
    if found not in ((*wanted, space.low_repr, space.high_repr), (*wanted, "0.0", "inf")):
        raise ValueError(
            f"policy agent: {path} was not trained for {game_id}: its {key} is {_described(entry)}, not {space}"
        )
    return space


def _action_space(path, key, entry, game_id):
    space = _spaces(game_id)[1]
    found = (entry.get(":type:"), entry.get("n"), entry.get("start"))
    if found != (f"<class '{type(space).__module__}.{type(space).__qualname__}'>", str(space.n), "0"):
        raise ValueError(
            f"policy agent: {path} was not trained for {game_id}: its {key} is {_described(entry)}, not {space}"
        )
    return space


def _constant_schedule(path, key, entry, game_id):
    from stable_baselines3.common.utils import ConstantSchedule, FloatSchedule

    value = re.fullmatch(r"ConstantSchedule\(val=([-+0-9.e]+|inf)\)", str(entry.get("value_schedule")))
    if entry.get(":type:") != "<class 'stable_baselines3.common.utils.FloatSchedule'>" or value is None:
        _refuse(path, key, entry, "only constant schedules are rebuilt")
    return FloatSchedule(ConstantSchedule(float(value.group(1))))


def _sb3_class(candidates):
    """A rebuilder of a class entry: the one of ``candidates`` whose module and methods the entry names."""

    def rebuild(path, key, entry, game_id):
        owners = {m.group(1) for v in entry.values() if (m := re.match(r"<function ([\w.]+)\.\w+ at ", str(v)))}
        for cls in candidates():
            if entry.get("__module__") == cls.__module__ and owners == {cls.__qualname__}:
                return cls
        known = ", ".join(c.__qualname__ for c in candidates())
        _refuse(path, key, entry, f"{entry.get('__module__')}.{'/'.join(sorted(owners))} is not one of {known}")

    return rebuild


def _policy_classes():
    from sb3_contrib import MaskablePPO

    return list(MaskablePPO.policy_aliases.values())


def _buffer_classes():
    from sb3_contrib.common.maskable.buffers import MaskableDictRolloutBuffer, MaskableRolloutBuffer

    return [MaskableRolloutBuffer, MaskableDictRolloutBuffer]


def _training_state(kind: str):
    """A rebuilder of an entry of the last ``learn`` call's state (its last observations, its episode-info
    deques): None, what SB3 holds before training and what ``learn`` starts from (it resets the env); playing
    never reads it."""

    def rebuild(path, key, entry, game_id):
        if entry.get(":type:") != f"<class '{kind}'>":
            _refuse(path, key, entry, f"expected {kind}")
        return None

    return rebuild


_SB3_ENTRIES = {  # the cloudpickled entries a MaskablePPO zip holds, and how each is rebuilt
    "_last_obs": _training_state("numpy.ndarray"),
    "_last_original_obs": _training_state("numpy.ndarray"),
    "_last_episode_starts": _training_state("numpy.ndarray"),
    "ep_info_buffer": _training_state("collections.deque"),
    "ep_success_buffer": _training_state("collections.deque"),
    "observation_space": _observation_space,
    "action_space": _action_space,
    "lr_schedule": _constant_schedule,
    "clip_range": _constant_schedule,
    "clip_range_vf": _constant_schedule,
    "policy_class": _sb3_class(_policy_classes),
    "rollout_buffer_class": _sb3_class(_buffer_classes),
}
