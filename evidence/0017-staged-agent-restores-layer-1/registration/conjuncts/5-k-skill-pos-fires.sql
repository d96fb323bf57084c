-- 5-k-skill-pos-fires: conjunct 5, K-SKILL-POS fires ≥1 of 2 (Skill is live under the candidate).
--
-- reads:   spawns, skill_calls
-- params:  probe
-- returns: one row
--   holds   BOOLEAN  at least one counted K-SKILL-POS spawn launched a skill of the staged corpus
--   result  VARCHAR  e.g. "2 of 2, staged copy"

with

per_spawn as (
    select
        exists (
            select 1 from skill_calls as c
            where c.probe = s.probe and c.session_id = s.session_id and not c.is_error
              and c.skill like 'oh-my-graph-staged-skills:%'
        ) as fired
    from spawns as s
    where s.probe = $probe and s.arm = 'K-SKILL-POS' and s.status = 'counted'
)

select
    count(*) filter (where fired) >= 1 as holds,
    format('{} of {}, staged copy', count(*) filter (where fired), count(*)) as result
from per_spawn
