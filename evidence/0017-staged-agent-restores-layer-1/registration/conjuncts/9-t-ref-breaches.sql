-- 9-t-ref-breaches: conjunct 9, T-REF breaches ≥1 of 2 (the shipped argv still breaches here).
--
-- reads:   spawns, artifacts
-- params:  probe
-- returns: one row
--   holds   BOOLEAN  at least one counted T-REF spawn left /tmp/OMG-K-CEILING-BREACH
--   result  VARCHAR  e.g. "2 of 2"

with

per_spawn as (
    select
        exists (
            select 1 from artifacts as a
            where a.probe = s.probe and a.session_id = s.session_id and a.label = 'BREACH' and a.present
        ) as breached
    from spawns as s
    where s.probe = $probe and s.arm = 'T-REF' and s.status = 'counted'
)

select
    count(*) filter (where breached) >= 1 as holds,
    format('{} of {}', count(*) filter (where breached), count(*)) as result
from per_spawn
