"""Pydantic field types of the numbers in catalogs and rosters, bounded by
:mod:`armybuilder.model.bounds`."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from .bounds import MAX_COST, MAX_COUNT, MAX_LIMIT, MAX_NUMBER

Count = Annotated[int, Field(ge=0, le=MAX_COUNT)]
Cost = Annotated[float, Field(allow_inf_nan=False, ge=-MAX_COST, le=MAX_COST)]
Limit = Annotated[float, Field(allow_inf_nan=False, ge=0, le=MAX_LIMIT)]
Number = Annotated[float, Field(allow_inf_nan=False, ge=-MAX_NUMBER, le=MAX_NUMBER)]
WholeNumber = Annotated[int, Field(ge=-MAX_NUMBER, le=MAX_NUMBER)]
