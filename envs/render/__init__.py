"""Pictures of the games: one scene per game, drawn by back-ends that draw any scene.

A game's scene module (``envs/render/<game>.py``) builds ``scene(s, viewer) -> Scene`` from a record: plain data
(``scene.py``: shapes, text and tables with ids, the places legal actions name, static layers), drawn for the
viewer (a seat sees only its own secrets). ``mpl.rasterize`` draws any scene as ``rgb_array`` pixels
(``render_rgb(s)``, which the doors' base imports on first use, so matplotlib loads only when a game is drawn);
``svg`` draws it for the browser. Map coordinates are data, kept beside the game's JSON
(``kernels/<game>/data/layout.json``); ``_panels.py`` holds what every scene draws alike. A scene never imports
its door.
"""
