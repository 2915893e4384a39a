"""Pictures of the games: ``rgb_array`` renderers drawn with matplotlib (no window needed).

One module per game (``envs/render/<game>.py``) exports ``render_rgb(s) -> uint8[H, W, 3]``; the
game's env module sets it as ``render_rgb`` and lists ``"rgb_array"`` in its render modes. Map
coordinates are data, kept beside the game's JSON (``kernels/<game>/data/layout.json``).
"""
