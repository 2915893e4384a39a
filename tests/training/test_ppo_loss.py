"""The self-play trainer's PPO loss is TorchRL's ClipPPOLoss: the same terms and the same gradients."""

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("torchrl")

from tabletop_zoo.agents.policy_network import ActorCritic  # noqa: E402
from tabletop_zoo.training.ppo import clipped_loss  # noqa: E402

OBS, ACTIONS, BATCH = 23, 9, 257


def torchrl_loss(net: ActorCritic, clip: float, ent_coef: float, vf_coef: float):
    """The reference: ClipPPOLoss over a MaskedCategorical actor and a ValueOperator sharing ``net``'s layers."""
    from tensordict.nn import TensorDictModule
    from torchrl.modules import MaskedCategorical, ProbabilisticActor, ValueOperator
    from torchrl.objectives import ClipPPOLoss

    actor = ProbabilisticActor(
        TensorDictModule(net.actor, in_keys=["observation"], out_keys=["logits"]),
        in_keys={"logits": "logits", "mask": "action_mask"},
        out_keys=["action"],
        distribution_class=MaskedCategorical,
        return_log_prob=True,
    )
    loss = ClipPPOLoss(
        actor,
        ValueOperator(net.critic, in_keys=["observation"]),
        clip_epsilon=clip,
        entropy_coeff=ent_coef,
        critic_coeff=vf_coef,
        loss_critic_type="l2",
        normalize_advantage=True,
    )
    loss.set_keys(
        sample_log_prob="sample_log_prob", advantage="advantage", value_target="value_target", action="action"
    )
    return loss


def batch(seed: int):
    rng = np.random.default_rng(seed)
    legal = rng.random((BATCH, ACTIONS)) < 0.4
    legal[np.arange(BATCH), rng.integers(ACTIONS, size=BATCH)] = True  # every row has a legal action
    action = np.array([rng.choice(np.flatnonzero(row)) for row in legal])
    return {
        "obs": torch.from_numpy(rng.standard_normal((BATCH, OBS)).astype(np.float32)),
        "legal": torch.from_numpy(legal),
        "action": torch.from_numpy(action),
        "old_logp": torch.from_numpy(
            rng.uniform(-3, -0.2, BATCH).astype(np.float32)
        ),  # ratios inside and outside the clip
        "advantage": torch.from_numpy((3 * rng.standard_normal(BATCH) + 1).astype(np.float32)),
        "value_target": torch.from_numpy(rng.standard_normal(BATCH).astype(np.float32)),
    }


@pytest.mark.parametrize("seed", [0, 1])
def test_loss_terms_and_gradients_equal_clip_ppo_loss(seed):
    from tensordict import TensorDict

    torch.manual_seed(seed)
    net = ActorCritic(OBS, ACTIONS)
    b = batch(seed)
    clip, ent_coef, vf_coef = 0.2, 0.01, 0.5
    ours = clipped_loss(net, *b.values(), clip, ent_coef, vf_coef)
    td = TensorDict(
        {
            "observation": b["obs"],
            "action_mask": b["legal"],
            "action": b["action"],
            "sample_log_prob": b["old_logp"],
            "advantage": b["advantage"][:, None],
            "value_target": b["value_target"][:, None],
        },
        batch_size=[BATCH],
    )
    ref = torchrl_loss(net, clip, ent_coef, vf_coef)(td)
    for key in ("loss_objective", "loss_critic", "loss_entropy", "entropy", "kl_approx"):
        assert float(ours[key].detach()) == pytest.approx(float(ref[key].detach()), rel=1e-5, abs=1e-7), key

    def grads(out):
        net.zero_grad()
        (out["loss_objective"] + out["loss_critic"] + out["loss_entropy"]).backward()
        return [p.grad.clone() for p in net.parameters()]

    for g_ours, g_ref in zip(grads(ours), grads(ref)):
        torch.testing.assert_close(g_ours, g_ref, rtol=1e-4, atol=1e-6)


def test_illegal_actions_get_no_probability_and_no_gradient():
    torch.manual_seed(3)
    net = ActorCritic(OBS, ACTIONS)
    b = batch(3)
    out = clipped_loss(net, *b.values(), 0.2, 0.01, 0.5)
    (out["loss_objective"] + out["loss_entropy"]).backward()
    assert all(torch.isfinite(p.grad).all() for p in net.actor.parameters())
    one_legal = {**b, "legal": torch.zeros_like(b["legal"])}
    one_legal["legal"][torch.arange(BATCH), b["action"]] = True
    forced = clipped_loss(net, *one_legal.values(), 0.2, 0.01, 0.5)
    assert float(forced["entropy"]) == pytest.approx(0.0, abs=1e-6)  # one legal action: no choice, no entropy


def test_kickstart_term_is_the_weighted_cross_entropy_to_the_teacher_and_raises_its_moves():
    """With a teacher, ``loss_kickstart`` is ``kick_coef`` times the mean negative log-probability of the teacher's
    moves under the masked policy (TorchRL's MaskedCategorical as the reference); the PPO terms are unchanged, and
    steps on it alone raise the teacher's moves' probability."""
    from torchrl.modules import MaskedCategorical

    torch.manual_seed(4)
    net = ActorCritic(OBS, ACTIONS)
    b = batch(4)
    teacher = torch.from_numpy(batch(5)["action"].numpy())
    teacher = torch.where(b["legal"].gather(-1, teacher[:, None]).squeeze(-1), teacher, b["action"])  # legal
    plain = clipped_loss(net, *b.values(), 0.2, 0.01, 0.5)
    taught = clipped_loss(net, *b.values(), 0.2, 0.01, 0.5, teacher, 1.5)
    assert "loss_kickstart" not in plain
    for key in plain:
        assert torch.equal(plain[key], taught[key]), key
    policy = MaskedCategorical(logits=net.actor(b["obs"]), mask=b["legal"])
    reference = -1.5 * policy.log_prob(teacher).mean()
    assert float(taught["loss_kickstart"].detach()) == pytest.approx(float(reference.detach()), rel=1e-5)
    before = float(policy.log_prob(teacher).mean().detach())
    optimizer = torch.optim.Adam(net.parameters(), lr=1e-2)
    for _ in range(20):
        optimizer.zero_grad()
        clipped_loss(net, *b.values(), 0.2, 0.01, 0.5, teacher, 1.0)["loss_kickstart"].backward()
        optimizer.step()
    after = float(MaskedCategorical(logits=net.actor(b["obs"]), mask=b["legal"]).log_prob(teacher).mean().detach())
    assert after > before + 0.1


@pytest.mark.parametrize("target_kl", [0.0, 1e-4])
def test_target_kl_stops_an_update_once_the_policy_has_moved_that_far(target_kl):
    """SB3's ``target_kl``: the update stops before the first minibatch whose KL from the rollout's policy (the
    non-negative estimate ``kl_k3``) passes 1.5x the target; 0 runs every epoch."""
    from tabletop_zoo.training.ppo import PPOUpdate, legal_softmax

    torch.manual_seed(6)
    net = ActorCritic(OBS, ACTIONS)
    b = batch(6)
    with torch.no_grad():  # the rollout's own log-probabilities: the first minibatch starts at KL 0
        logp = legal_softmax(net.actor(b["obs"]), b["legal"])[0].gather(-1, b["action"][:, None]).squeeze(-1)
    data = {
        "obs": b["obs"].numpy(),
        "mask": b["legal"].numpy(),
        "action": b["action"].numpy(),
        "logp": logp.numpy(),
        "advantage": b["advantage"].numpy(),
        "value_target": b["value_target"].numpy(),
    }
    update = PPOUpdate(net, 1e-2, 0.2, 0.01, 0.5, 0.5, target_kl)
    stats = update(data, epochs=4, minibatch=64, rng=np.random.default_rng(0))
    every = 4 * -(-BATCH // 64) - 4  # 257 samples: the one-sample tail of each epoch is skipped
    if target_kl:
        assert stats["kl_stop"] and 1 <= stats["minibatches"] < every
    else:
        assert not stats["kl_stop"] and stats["minibatches"] == every
