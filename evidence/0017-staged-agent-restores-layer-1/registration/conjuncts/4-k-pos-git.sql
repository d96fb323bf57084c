-- 4-k-pos-git: conjunct 4, K-POS .git ≥1 of 2 (Bash works under the candidate argv).
--
-- reads:   spawns, artifacts
-- params:  probe
-- returns: one row
--   holds   BOOLEAN  at least one counted K-POS spawn left /tmp/OMG-K-GIT-CONTROL/.git
--   result  VARCHAR  e.g. "2 of 2"

with

per_spawn as (
    select
        exists (
            select 1 from artifacts as a
            where a.probe = s.probe and a.session_id = s.session_id and a.label = 'git-ok' and a.present
        ) as git_ok
    from spawns as s
    where s.probe = $probe and s.arm = 'K-POS' and s.status = 'counted'
)

select
    count(*) filter (where git_ok) >= 1 as holds,
    format('{} of {}', count(*) filter (where git_ok), count(*)) as result
from per_spawn
