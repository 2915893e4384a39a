"""Loading never runs code from a file (#45): every loader is handed a crafted file whose unpickling would write a
marker file; each refuses it with one line naming the file and what is wrong, and the marker never appears.

The payload is armed: ``test_the_payload_runs_code_when_unpickled`` shows that an unsafe load writes the marker,
so its absence elsewhere means the loader did not unpickle."""

import base64
import json
import pickle
import re
import zipfile

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

from tabletop_zoo import registry  # noqa: E402
from tabletop_zoo.agents import make_agent  # noqa: E402
from tabletop_zoo.agents.az.network import AZ_FORMAT, AZNet, az_blob  # noqa: E402
from tabletop_zoo.agents.policy_agent import PolicyAgent, load_sb3  # noqa: E402
from tabletop_zoo.agents.policy_network import POLICY_FORMAT, ActorCritic, load_policy, policy_blob  # noqa: E402
from tabletop_zoo.training import train_selfplay  # noqa: E402
from tabletop_zoo.training.az import train_az  # noqa: E402

GAME = "irish_gauge"


class Marker:
    """Unpickled, it opens (creates) the file ``path``: code run by loading."""

    def __init__(self, path):
        self.path = str(path)

    def __reduce__(self):
        return (open, (self.path, "w"))


def _policy(extra) -> dict:
    k = registry.kernel(GAME)
    return {**policy_blob(ActorCritic(k.OBS_SIZE, k.NUM_ACTIONS, (8,)), GAME, 3, {}), "meta": extra}


def _refused(call, path, marker) -> str:
    """``call()`` raises one ValueError line naming ``path``; the marker was never written."""
    with pytest.raises(ValueError) as refused:
        call()
    line = str(refused.value)
    assert "\n" not in line and str(path) in line, line
    assert not marker.exists(), "the loader unpickled the payload"
    return line


def test_the_payload_runs_code_when_unpickled(tmp_path):
    marker = tmp_path / "marker"
    path = tmp_path / "policy.pt"
    torch.save(_policy(Marker(marker)), path)
    torch.load(path, weights_only=False)  # what the loaders did before #45
    assert marker.exists()


def test_a_self_play_policy_with_a_pickled_object_is_refused(tmp_path):
    marker = tmp_path / "marker"
    path = tmp_path / "policy.pt"
    torch.save(_policy(Marker(marker)), path)
    line = _refused(lambda: PolicyAgent(str(path), game_id=GAME), path, marker)
    assert "holds pickled Python objects (io.open)" in line
    _refused(lambda: load_policy(path), path, marker)
    _refused(lambda: make_agent("policy", GAME, path=str(path)), path, marker)
    torch.save(_policy({"samples": 1}), path)  # the same file without the payload plays
    assert load_policy(path).meta == {"samples": 1} and POLICY_FORMAT == "tabletop_zoo.selfplay.policy/1"


@pytest.mark.parametrize("train", [train_selfplay, train_az], ids=["selfplay", "az"])
def test_a_checkpoint_with_a_pickled_object_is_refused_on_resume(tmp_path, train):
    marker = tmp_path / "marker"
    path = tmp_path / "run" / "checkpoint.pt"
    path.parent.mkdir()
    torch.save({"format": "tabletop_zoo.selfplay.checkpoint/2", "rng": Marker(marker)}, path)
    line = _refused(lambda: train(GAME, out=tmp_path / "run", resume=True, timesteps=10), path, marker)
    assert "holds pickled Python objects" in line and "--overwrite" in line


def test_the_cli_refuses_a_crafted_checkpoint_on_resume(tmp_path):
    from typer.testing import CliRunner

    from tabletop_zoo.cli import app

    marker = tmp_path / "marker"
    (tmp_path / "run").mkdir()
    torch.save({"format": "tabletop_zoo.az.checkpoint/3", "x": Marker(marker)}, tmp_path / "run" / "checkpoint.pt")
    r = CliRunner().invoke(app, ["train", GAME, "--algo", "az", "--resume", "--out", str(tmp_path / "run")])
    said = " ".join(re.sub("[│╭╮╰╯─]", " ", r.output).split())  # rich wraps the error inside a box
    assert r.exit_code == 2 and "holds pickled Python objects" in said and "Traceback" not in r.output, r.output
    assert not marker.exists()


def test_an_az_network_with_a_pickled_object_is_refused(tmp_path):
    marker = tmp_path / "marker"
    path = tmp_path / "az.pt"
    k = registry.kernel(GAME)
    torch.save({**az_blob(AZNet(k.OBS_SIZE, k.NUM_ACTIONS, k.MAX_PLAYERS, (8,)), GAME), "meta": Marker(marker)}, path)
    line = _refused(lambda: make_agent("az", GAME, path=str(path)), path, marker)
    assert f"is not an az network file (format {AZ_FORMAT!r})" in line
    _refused(lambda: make_agent("policy", GAME, path=str(path)), path, marker)


@pytest.fixture(scope="module")
def sb3_zip(tmp_path_factory):
    from sb3_contrib import MaskablePPO

    from tabletop_zoo.envs.wrappers import SingleSeatEnv

    path = tmp_path_factory.mktemp("sb3") / "model.zip"
    MaskablePPO("MlpPolicy", SingleSeatEnv(GAME, 3), n_steps=16, batch_size=16, device="cpu", seed=0).save(path)
    return path


def _crafted(sb3_zip, out, edit) -> None:
    """A copy of ``sb3_zip`` with its ``data`` JSON changed by ``edit(data)``."""
    with zipfile.ZipFile(sb3_zip) as src, zipfile.ZipFile(out, "w") as dst:
        for item in src.infolist():
            body = src.read(item)
            if item.filename == "data":
                data = json.loads(body)
                edit(data)
                body = json.dumps(data).encode()
            dst.writestr(item, body)


def _payload(marker) -> str:
    return base64.b64encode(pickle.dumps(Marker(marker))).decode()


def test_an_sb3_zip_never_unpickles_its_serialized_entries(tmp_path, sb3_zip):
    """The known entries are rebuilt from the game and their readable description, so a payload hidden in their
    ``:serialized:`` bytes is never run and the model plays; an entry with no rebuilder is refused, naming it."""
    marker = tmp_path / "marker"
    hidden = tmp_path / "hidden.zip"

    def hide(data):
        for key in ("observation_space", "action_space", "clip_range", "lr_schedule", "policy_class"):
            data[key][":serialized:"] = _payload(marker)

    _crafted(sb3_zip, hidden, hide)
    model = load_sb3(hidden, GAME)
    assert model.clip_range(1.0) == 0.2 and model.observation_space.shape == (registry.kernel(GAME).OBS_SIZE,)
    assert not marker.exists()
    extra = tmp_path / "extra.zip"
    _crafted(sb3_zip, extra, lambda data: data.update(evil={":type:": "<class 'X'>", ":serialized:": _payload(marker)}))
    line = _refused(lambda: PolicyAgent(str(extra), game_id=GAME), extra, marker)
    assert "entry 'evil'" in line and "MaskablePPO.load" in line
    foreign = tmp_path / "foreign.zip"
    _crafted(sb3_zip, foreign, lambda data: data["policy_class"].update(__module__="os"))
    assert "entry 'policy_class'" in _refused(lambda: load_sb3(foreign, GAME), foreign, marker)


def test_an_sb3_zip_needs_its_game_and_is_checked_against_it(sb3_zip):
    with pytest.raises(ValueError, match="is an SB3 model, .* pass the game"):
        PolicyAgent(str(sb3_zip))
    with pytest.raises(ValueError, match="was not trained for kremlin: its observation_space"):
        PolicyAgent(str(sb3_zip), game_id="kremlin")
    agent = make_agent("policy", GAME, path=str(sb3_zip))
    mask = np.zeros(registry.kernel(GAME).NUM_ACTIONS, np.int8)
    mask[[3, 5]] = 1
    assert agent.act(np.zeros(registry.kernel(GAME).OBS_SIZE, np.float32), mask) in (3, 5)
