"""``python -m tabletop_zoo.cli``: the ``tabletop-zoo`` command."""

from . import app

if __name__ == "__main__":
    app()
