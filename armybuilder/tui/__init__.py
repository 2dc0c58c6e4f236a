"""The Textual user interface of armybuilder.

Start it with ``armybuilder`` (home screen) or ``armybuilder FILE`` (that roster), or from
Python with :func:`armybuilder.tui.app.run`. The editing logic lives in
:mod:`armybuilder.session`, which knows nothing of Textual; this package only shows it.

Layout: ``app.py`` (the application), ``screens/`` (home, editor, dialogs, help, export),
``widgets/`` (the editor's areas: catalog browser, roster tree, details, issues, totals),
``bindings.py`` (every key binding, with the id a user's settings file can remap),
``settings.py`` (that file), ``commands.py`` (command palette), ``app.tcss`` (styles).
"""
