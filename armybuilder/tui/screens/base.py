"""What the builder's full screens share."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.screen import Screen

if TYPE_CHECKING:
    from ..app import ArmyBuilderApp


class ArmyScreen(Screen[None]):
    """A full screen of the builder (the home screen, the editor)."""

    @property
    def army_app(self) -> ArmyBuilderApp:
        """The application, with its library, settings and folders."""
        from ..app import ArmyBuilderApp

        assert isinstance(self.app, ArmyBuilderApp)
        return self.app
