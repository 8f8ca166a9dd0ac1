"""The kernel every app shares: errors, rows, metrics, database threads, Redis clients, the
socket base. It imports no app and nothing of the composition root (config).
"""
