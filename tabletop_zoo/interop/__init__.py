"""Bridges to other game frameworks. Each module imports its framework, so load only what you use:

from tabletop_zoo.interop import openspiel   # registers every game with pyspiel
"""
