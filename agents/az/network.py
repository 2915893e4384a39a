"""The network that guides the search: a policy over every action and a value per seat, seat-relative.

``AZNet(obs) -> (logits[NUM_ACTIONS], values[MAX_PLAYERS])``: a shared MLP trunk (ReLU) with two heads.
The observation is the deciding seat's own (``kernel.observe``, already seat-relative), and value k
predicts the return of seat ``(mover + k) % players``, so one network serves every player count: the
heads beyond the table's player count are ignored. Illegal actions get prior 0 (masked softmax).

``save_az`` / ``load_az`` keep what playing needs in one small file: the game, the sizes, the widths, the
weights and how the weights were made (``meta``: the command, samples, wall time). ``AZPolicy`` plays the
policy head alone, without search (``policy:path=az.pt``): a reactive policy that reads only its seat's
observation.
"""

from __future__ import annotations

import pathlib
import re

import numpy as np
import torch
from torch import nn

AZ_FORMAT = "tabletop_zoo.az/1"


class AZNet(nn.Module):
    def __init__(self, obs_size: int, num_actions: int, max_players: int, hidden: tuple[int, ...] = (256, 256)):
        super().__init__()
        self.obs_size, self.num_actions, self.max_players = int(obs_size), int(num_actions), int(max_players)
        self.hidden = tuple(int(h) for h in hidden)
        layers: list[nn.Module] = []
        width = self.obs_size
        for h in self.hidden:
            layers += [nn.Linear(width, h), nn.ReLU()]
            width = h
        self.trunk = nn.Sequential(*layers)
        self.policy = nn.Linear(width, self.num_actions)
        self.value = nn.Linear(width, self.max_players)

    def forward(self, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        x = self.trunk(obs)
        return self.policy(x), self.value(x)

    @torch.no_grad()
    def evaluate(self, obs: np.ndarray, mask: np.ndarray, num_players: int) -> tuple[np.ndarray, np.ndarray]:
        """The search's evaluator: (prior float32[k, NUM_ACTIONS], zero off the mask; seat-relative
        values float32[k, num_players]) for k observations and their legal masks."""
        logits, values = self(torch.from_numpy(np.ascontiguousarray(obs, np.float32)))
        legal = torch.from_numpy(np.asarray(mask, bool))
        prior = torch.softmax(logits.masked_fill(~legal, -torch.inf), dim=1)
        return prior.numpy(), values[:, :num_players].numpy()


class AZPolicy:
    """An az network's policy head as a model with SB3's ``predict(obs, action_masks=..., deterministic=...)``
    face (what ``PolicyAgent`` plays): the most likely legal action, or one drawn from the masked softmax."""

    def __init__(self, net: AZNet, game_id: str, meta: dict):
        self.net, self.game_id, self.meta = net, game_id, meta
        self._generator = torch.Generator().manual_seed(0)

    def set_random_seed(self, seed: int) -> None:
        self._generator.manual_seed(int(seed))

    @torch.no_grad()
    def predict(self, observation, action_masks, deterministic: bool = True):
        obs = torch.from_numpy(np.asarray(observation, np.float32).reshape(1, self.net.obs_size))
        legal = torch.from_numpy(np.asarray(action_masks, bool).reshape(1, self.net.num_actions))
        if not legal.any():
            raise ValueError("the action mask has no legal action: this seat is not to move")
        logits = self.net(obs)[0].masked_fill(~legal, -torch.inf)
        if deterministic:
            return int(logits.argmax(1)), None
        return int(torch.multinomial(torch.softmax(logits, 1), 1, generator=self._generator)), None


def masked_log_softmax(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """log-probabilities with illegal actions at -inf, written so their gradient is 0."""
    return torch.log_softmax(logits.masked_fill(~mask, -torch.inf), dim=1)


def az_blob(net: AZNet, game_id: str, meta: dict | None = None) -> dict:
    """What ``az.pt`` holds: tensors and plain values only."""
    return {
        "format": AZ_FORMAT,
        "game": game_id,
        "obs_size": net.obs_size,
        "num_actions": net.num_actions,
        "max_players": net.max_players,
        "hidden": list(net.hidden),
        "state_dict": {k: v.detach().clone() for k, v in net.state_dict().items()},
        "meta": dict(meta or {}),
    }


def save_az(path, net: AZNet, game_id: str, meta: dict | None = None) -> pathlib.Path:
    path = pathlib.Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.save(az_blob(net, game_id, meta), path)
    return path


def load_plain(path, what: str, hint: str = ""):
    """``torch.load`` of a file of tensors and plain values (``weights_only``): a file that would unpickle Python
    objects is refused with one line, never run (a pickle can call anything). ``what`` names what the file should
    be, ``hint`` is added to the error (how to proceed)."""
    try:
        return torch.load(path, map_location="cpu", weights_only=True)
    except Exception as e:  # torch's message is a page long: one line naming the file and what is wrong
        raise ValueError(f"{path} is not {what}: {load_error(e)}{hint}") from None


def load_error(e: Exception) -> str:
    """What ``torch.load(weights_only=True)``'s page-long error says, in one line."""
    text = str(e).split("WeightsUnpickler error:", 1)[-1]
    culprit = re.search(r"GLOBAL (\S+)", text)
    if culprit:
        return f"it holds pickled Python objects ({culprit.group(1)}), never loaded because unpickling can run code"
    first = next((line.strip() for line in text.splitlines() if line.strip()), type(e).__name__)
    return f"it is not a torch file of tensors and plain values ({first})"


def load_az(path, game_id: str | None = None) -> tuple[AZNet, dict]:
    """The network saved at ``path`` and its record; raises when it is not an az file or is another game's."""
    path = pathlib.Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"no az network at {path}")
    return az_from_blob(load_plain(path, f"an az network file (format {AZ_FORMAT!r})"), path, game_id)


def az_from_blob(blob, path, game_id: str | None = None) -> tuple[AZNet, dict]:
    """``load_az`` on the contents of a file already read (``path`` only names it in errors)."""
    if not isinstance(blob, dict) or blob.get("format") != AZ_FORMAT:
        raise ValueError(f"{path} is not an az network file (format {AZ_FORMAT!r})")
    if game_id is not None and blob["game"] != game_id:
        raise ValueError(f"{path} is a network for {blob['game']!r}, not {game_id!r}")
    net = AZNet(blob["obs_size"], blob["num_actions"], blob["max_players"], tuple(blob["hidden"]))
    net.load_state_dict(blob["state_dict"])
    net.eval()
    return net, blob
