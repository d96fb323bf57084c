-- 7-repo-copy-never-fires: conjunct 7, K-UPONLY/K-REPO-N/K-REPO-D fire the repo copy 0 of n.
--
-- reads:   spawns, skill_calls
-- params:  probe
-- returns: one row
--   holds   BOOLEAN  no counted spawn of the three arms launched a skill outside the staged corpus
--   result  VARCHAR  e.g. "0, with Unknown skill on the 2 arms that tried (K-UPONLY, K-REPO-N)"

with

calls as (
    select
        s.arm,
        c.is_error,
        c.skill like 'oh-my-graph-staged-skills:%' as staged,
        coalesce(c.result, '') like '%Unknown skill%' as unknown
    from spawns as s
    join skill_calls as c on c.probe = s.probe and c.session_id = s.session_id
    where s.probe = $probe and s.arm in ('K-UPONLY', 'K-REPO-N', 'K-REPO-D') and s.status = 'counted'
),

tried as (
    select
        arm,
        min(case arm when 'K-UPONLY' then 1 when 'K-REPO-N' then 2 else 3 end) as o
    from calls
    where unknown
    group by arm
),

final as (
    select
        (select count(*) from calls where not is_error and not staged) as repo_fires,
        (select count(*) from tried) as arms_tried,
        (select string_agg(arm, ', ' order by o) from tried) as arms
)

select
    repo_fires = 0 as holds,
    case
        when arms_tried = 0 then format('{}', repo_fires)
        else format('{}, with Unknown skill on the {} arms that tried ({})', repo_fires, arms_tried, arms)
    end as result
from final
