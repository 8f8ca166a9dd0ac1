"""Auto-arrangement solvers for ``thirteen`` and ``thirteen_trio`` (docs/RULES.md sections 1 and 2).

``solve_thirteen(cards, k=3)`` and ``solve_trio(cards, jackpot, k=3)`` return the best
arrangement and up to ``k - 1`` distinct alternatives, each ``{"front", "middle", "back",
"declare", "score"}``; they never foul. docs/SOLVER.md explains the objective (expected
score against realistic opponents) and how it was validated.
"""

from games.engine.solver.thirteen import solve_thirteen
from games.engine.solver.trio import solve_trio

__all__ = ["solve_thirteen", "solve_trio"]
