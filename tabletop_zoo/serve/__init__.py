"""``tabletop-zoo serve``: watch and play the games in the browser.

A local FastAPI app (``app.create_app``) with a plain JS/SVG page (``static/``, no build step): start a
game of any game, player count and ruleset with a human or an agent spec in every seat, play by clicking
legal moves (or their places on the map), undo, watch the agents move at a chosen pace; step, play and
scrub through any game of an arena run folder or any replay file. Binds 127.0.0.1 by default, reads
only the run folders it was given and plays only the model files of its ``--models`` folder, by name
(``policy:model=NAME``); a client never names a file. The limits it keeps are listed in ``app.py``.

    tabletop-zoo serve --runs arena_runs/irish_gauge-20260101-120000 --models trained/
"""

from .app import create_app

__all__ = ["create_app"]
