"""The integrity app's rows: the welcome-coins payments and flags (``grants``), the signals
stored as hands settle (``signals``) and the cases a flag opens (``cases``)."""

from integrity.models.cases import Case, CaseAction, CaseNote
from integrity.models.grants import GrantFlow, GrantFlowFlag
from integrity.models.signals import PairSignal, PairTable, PlayerSignal, SignalCursor

__all__ = ["Case", "CaseAction", "CaseNote", "GrantFlow", "GrantFlowFlag", "PairSignal", "PairTable",
           "PlayerSignal", "SignalCursor"]
