"""Writes of the integrity app: the welcome-coins signal the settlement records (``grants``),
the stored signals brought up to date from the hand records (``signals``) and the cases a flag
opens, with the actions taken from them (``cases``)."""

from integrity.services.grants import grant_flow_judge, hand_grant_flows_record

__all__ = ["grant_flow_judge", "hand_grant_flows_record"]
