"""One module per game system, named in the system's ``system.yaml`` (``module:``).

Each module exposes ``RULES``, an instance of :class:`armybuilder.plugin.SystemRules`.
The core never imports these modules by name: :func:`armybuilder.plugin.load_rules`
imports the one a catalog asks for.
"""
