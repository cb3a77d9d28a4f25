"""PI-Extract: which personal-information types a policy sentence says are collected, not collected,
shared and not shared (Bui et al. 2021), as character spans."""
