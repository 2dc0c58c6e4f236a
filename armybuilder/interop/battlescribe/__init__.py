"""BattleScribe interoperability: its data model, its translation into armybuilder's catalog
model, and the conformance suite's adapter (see ``docs/battlescribe.md``)."""
