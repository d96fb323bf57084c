-- skill_resolution: which definition answered each arm's Skill calls, from the committed records.
--
-- A call is answered by the namespace of the name the CLI launched ("Launching skill: ns:name"),
-- "no namespace" when the launched name has none, "Unknown skill" when the CLI did not know the
-- name, "error" for any other error, and "no answer" when no result answered it. Over the spawns
-- `arms` describes: a pilot's calls are left out (spawns.status, from the addenda), a void arm's kept.
--
-- reads:   skill_calls, registered_arms, spawns
-- params:  none
-- returns: one row per probe, arm and answer
--   probe     VARCHAR
--   arm       VARCHAR
--   answer    VARCHAR  the definition's namespace, or one of the words above
--   calls     BIGINT   Skill calls so answered
--   sessions  BIGINT   spawns that made such a call
-- order:   probe, registration order (unregistered arms last, by first seq), calls desc, answer

with

answered as (
    select
        c.probe,
        c.arm,
        c.session_id,
        coalesce(nullif(regexp_extract(c.result, '^Launching (?:skill|command): /?(\S+)', 1), ''), c.skill) as launched,
        case
            when c.is_error is null then 'no answer'
            when c.result like '%Unknown skill%' or c.result like '%Unknown slash command%' then 'Unknown skill'
            when c.is_error then 'error'
        end as failed
    from skill_calls as c
    join spawns as s using (probe, session_id)
    where s.status <> 'pilot'
)

select
    a.probe,
    a.arm,
    coalesce(a.failed, case when contains(a.launched, ':') then split_part(a.launched, ':', 1) else 'no namespace' end) as answer,
    count(*) as calls,
    count(distinct a.session_id) as sessions
from answered as a
left join registered_arms as r using (probe, arm)
left join (select probe, arm, min(seq) as first_seq from spawns group by all) as s using (probe, arm)
group by a.probe, a.arm, answer, r.ordinal, s.first_seq
order by a.probe, r.ordinal nulls last, s.first_seq nulls last, a.arm, calls desc, answer
