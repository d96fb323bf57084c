-- 6-k-collide-staged: conjunct 6, K-COLLIDE staged 3 of 3 (the staged corpus keeps its own name).
--
-- reads:   spawns, skill_calls, registered_arms
-- params:  probe
-- returns: one row
--   holds   BOOLEAN  every registered K-COLLIDE spawn launched the staged copy and no other copy
--   result  VARCHAR  e.g. "3 of 3"

with

per_spawn as (
    select
        exists (
            select 1 from skill_calls as c
            where c.probe = s.probe and c.session_id = s.session_id and not c.is_error
              and c.skill like 'oh-my-graph-staged-skills:%'
        ) as staged,
        exists (
            select 1 from skill_calls as c
            where c.probe = s.probe and c.session_id = s.session_id and not c.is_error
              and c.skill not like 'oh-my-graph-staged-skills:%'
        ) as other
    from spawns as s
    where s.probe = $probe and s.arm = 'K-COLLIDE' and s.status = 'counted'
),

final as (
    select
        count(*) filter (where staged and not other) as staged,
        count(*) as ran,
        (select n from registered_arms where probe = $probe and arm = 'K-COLLIDE') as n
    from per_spawn
)

select
    staged = n and ran = n as holds,
    format('{} of {}', staged, ran) as result
from final
