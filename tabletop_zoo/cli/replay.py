"""`tabletop-zoo replay`: re-play a saved game, checked move by move, as text, a GIF or an MP4."""

from __future__ import annotations

import typer


def replay(
    file: str = typer.Argument(..., help="replay JSON (from play --save-replay), or an arena games.jsonl"),
    game_index: int | None = typer.Option(
        None, "--game-index", "-g", help="with a games.jsonl: the arena game number to replay"
    ),
    to_gif: str | None = typer.Option(None, "--to-gif", help="write an animated GIF of the rgb_array frames"),
    to_mp4: str | None = typer.Option(
        None, "--to-mp4", help="write an MP4 (H.264) of the rgb_array frames (extra: video)"
    ),
    fps: float = typer.Option(2.0, "--fps", help="GIF/MP4 frames per second"),
    every: int = typer.Option(1, "--every", help="show every K-th position (the last one always)"),
    max_frames: int | None = typer.Option(
        None, "--max-frames", help="at most this many frames/boards (default: 200 for a GIF, all in text)"
    ),
    step: bool = typer.Option(False, "--step", help="wait for Enter between positions (q quits)"),
    save: str | None = typer.Option(None, "--save", help="also write the (verified) replay as replay JSON"),
) -> None:
    """Re-play a saved game, checking it reproduces: each move (ansi board), an animated GIF or an MP4."""
    from ..replay import ReplayError, arena_replay, frame_positions, load_replay, write_video

    try:
        if file.endswith(".jsonl") or game_index is not None:
            if game_index is None:
                raise ReplayError(f"{file} holds many arena games: choose one with --game-index N")
            rep = arena_replay(file, game_index)
        else:
            rep = load_replay(file)
        shown = frame_positions(len(rep.actions), every, max_frames)  # checks --every and --max-frames
        if save:
            rep.save(save)
            typer.echo(f"replay saved to {save}")
        if to_gif and not to_gif.lower().endswith(".gif"):
            raise ReplayError(f"--to-gif needs a file name ending in .gif, got {to_gif!r}")
        if to_mp4 and not to_mp4.lower().endswith(".mp4"):
            raise ReplayError(f"--to-mp4 needs a file name ending in .mp4, got {to_mp4!r}")
        for video in (v for v in (to_gif, to_mp4) if v):
            frames = write_video(
                rep, video, fps=fps, every=every, progress=True, max_frames=200 if max_frames is None else max_frames
            )
            typer.echo(f"{video}: {frames} frames of {len(rep.actions)} decisions")
        if to_gif or to_mp4:
            return
    except (ValueError, OSError) as e:
        raise typer.BadParameter(str(e)) from None
    _print_replay(rep, set(shown), step)


def _print_replay(rep, shown: set[int], wait: bool) -> None:
    """Every move by name; the board (ansi) at the positions in ``shown``."""
    typer.echo(
        f"{rep.game}, {rep.num_players} players, seed {rep.seed}, {len(rep.actions)} decisions (replay verified)"
    )
    for position in rep.steps("ansi"):
        if position.action is not None:
            typer.echo(position.label)
        if position.index in shown:
            typer.echo(position.frame + "\n")
            if wait and position.index < len(rep.actions):
                if typer.prompt("Enter: next, q: quit", default="", show_default=False).strip().lower() == "q":
                    return
    if rep.finished:
        typer.echo("final scores: " + ", ".join(f"player_{i} {s}" for i, s in enumerate(rep.scores)))
