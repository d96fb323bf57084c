-- 1-k-res-resolves-staged: conjunct 1, K-RES resolves 3 of 3 with the STAGED token.
--
-- reads:   spawns, markers, registered_arms
-- params:  probe
-- returns: one row
--   holds   BOOLEAN  every registered K-RES spawn exited 0 and its marker carries the staged agent's
--                    token (OMG-K-AGENT-STAGED-8802), never the repository's (OMG-K-AGENT-REPO-8801)
--   result  VARCHAR  what was observed, e.g. "3 of 3, staged"

with

registered as (
    select n from registered_arms where probe = $probe and arm = 'K-RES'
),

per_spawn as (
    select
        s.session_id,
        s.exit_code = 0 as exited_ok,
        coalesce(bool_or(m.token = 'OMG-K-AGENT-STAGED-8802'), false) as staged,
        coalesce(bool_or(m.token = 'OMG-K-AGENT-REPO-8801'), false) as repo
    from spawns as s
    left join markers as m on m.probe = s.probe and m.session_id = s.session_id
    where s.probe = $probe and s.arm = 'K-RES' and s.status = 'counted'
    group by all
),

final as (
    select
        count(*) filter (where exited_ok and staged and not repo) as resolved,
        count(*) filter (where repo) as repo,
        (select n from registered) as n
    from per_spawn
)

select
    resolved = n as holds,
    format('{} of {}, {}', resolved, n, case when repo > 0 then format('repository token in {}', repo) else 'staged' end) as result
from final
