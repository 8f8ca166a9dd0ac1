"""Export formats of hand records: JSON Lines (``jsonl``), the PHH-style text form (``text``)
and the CSV summary (``csv``); :mod:`history.exports.stream` streams them from the database."""
