"""Validation: the generic engine and the per-system rules modules."""

from .engine import Evaluation, Issue, Node, Value, evaluate

__all__ = ["Evaluation", "Issue", "Node", "Value", "evaluate"]
