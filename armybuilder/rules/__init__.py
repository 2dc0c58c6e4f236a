"""Validation: the generic engine and the per-system rules modules."""

from .engine import Evaluation, Issue, Node, Value, evaluate, evaluate_roster

__all__ = ["Evaluation", "Issue", "Node", "Value", "evaluate", "evaluate_roster"]
