-- verdict: the verdict table, one row per registered conjunct, as its check evaluated it.
--
-- reads:   conjunct_results (filled by running each conjunct's registered check)
-- params:  none
-- returns: one row per conjunct
--   probe     VARCHAR
--   n         BIGINT   the conjunct's number
--   required  VARCHAR  what the registration requires
--   result    VARCHAR  what the check observed
--   holds     BOOLEAN
-- order:   probe, n

select
    probe,
    n,
    required,
    result,
    holds
from conjunct_results
order by probe, n
