-- k-repo-d-fires-repo: the trigger of K-REPO-DN, "K-REPO-D fires the repository copy".
--
-- reads:   spawns, skill_calls
-- params:  probe
-- returns: one row
--   fired     BOOLEAN  some counted K-REPO-D spawn launched a skill outside the staged corpus
--   observed  VARCHAR  e.g. "K-REPO-D fired the repo copy 0 of 3"

with

per_spawn as (
    select
        exists (
            select 1 from skill_calls as c
            where c.probe = s.probe and c.session_id = s.session_id and not c.is_error
              and c.skill not like 'oh-my-graph-staged-skills:%'
        ) as repo
    from spawns as s
    where s.probe = $probe and s.arm = 'K-REPO-D' and s.status = 'counted'
)

select
    count(*) filter (where repo) > 0 as fired,
    format('K-REPO-D fired the repo copy {} of {}', count(*) filter (where repo), count(*)) as observed
from per_spawn
