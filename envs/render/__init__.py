"""Pictures of the games: ``rgb_array`` renderers drawn with matplotlib (no window needed).

One module per game (``envs/render/<game>.py``) exports ``render_rgb(s) -> uint8[H, W, 3]``; the doors' base
(``KernelAECEnv.render_rgb``) imports it on first use, so matplotlib loads only when a game is drawn. Map
coordinates are data, kept beside the game's JSON (``kernels/<game>/data/layout.json``); ``_panels.py`` holds
what every picture draws alike. A picture never imports its door.
"""
