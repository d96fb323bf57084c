-- agree: the census derived from the committed records against the one derived from transcripts.
--
-- Compares, spawn by spawn, the tool_use count of every tool, the skills in call order, and the
-- is_error and text of every skill result the two sources both hold.
--
-- reads:   spawns, tool_uses, skill_calls, transcript_sessions, transcript_tool_uses,
--          transcript_tool_results
-- params:  none
-- returns: one row per spawn that agrees or has no transcript, and one per difference
--   probe        VARCHAR
--   seq          BIGINT
--   arm          VARCHAR
--   session_id   VARCHAR
--   verdict      VARCHAR  agree | differ | gone (no transcript: not a disagreement)
--   aspect       VARCHAR  tool | skills | skill result (NULL unless verdict is differ)
--   item         VARCHAR  the tool name, or the tool_use_id of the skill call
--   records      VARCHAR  what the committed records say
--   transcripts  VARCHAR  what the transcripts say
-- order:   probe, seq, aspect, item

with

covered as (
    select s.probe, s.session_id
    from spawns as s
    where exists (select 1 from transcript_sessions as t where t.session_id = s.session_id)
),

record_counts as (
    select t.probe, t.session_id, t.name, count(*) as n
    from tool_uses as t
    join covered using (probe, session_id)
    group by all
),

transcript_counts as (
    select c.probe, t.session_id, t.name, count(*) as n
    from transcript_tool_uses as t
    join covered as c using (session_id)
    group by all
),

tool_differences as (
    select
        coalesce(r.probe, t.probe) as probe,
        coalesce(r.session_id, t.session_id) as session_id,
        'tool' as aspect,
        coalesce(r.name, t.name) as item,
        coalesce(r.n, 0)::VARCHAR as records,
        coalesce(t.n, 0)::VARCHAR as transcripts
    from record_counts as r
    full join transcript_counts as t
        on t.probe = r.probe and t.session_id = r.session_id and t.name = r.name
    where coalesce(r.n, 0) <> coalesce(t.n, 0)
),

record_skills as (
    select c.probe, c.session_id, coalesce(list(t.skill order by t.ordinal) filter (where t.skill is not null), []) as skills
    from covered as c
    left join tool_uses as t using (probe, session_id)
    group by all
),

transcript_skills as (
    select c.probe, c.session_id, coalesce(list(t.skill order by t.ordinal) filter (where t.skill is not null), []) as skills
    from covered as c
    left join transcript_tool_uses as t using (session_id)
    group by all
),

skill_differences as (
    select
        r.probe,
        r.session_id,
        'skills' as aspect,
        'call order' as item,
        array_to_string(r.skills, ', ') as records,
        array_to_string(t.skills, ', ') as transcripts
    from record_skills as r
    join transcript_skills as t using (probe, session_id)
    where r.skills <> t.skills
),

result_differences as (
    select
        c.probe,
        c.session_id,
        'skill result' as aspect,
        c.tool_use_id as item,
        format('is_error={} {}', c.is_error, c.result) as records,
        format('is_error={} {}', x.is_error, x.result) as transcripts
    from skill_calls as c
    join covered using (probe, session_id)
    join transcript_tool_results as x using (session_id, tool_use_id)
    where c.is_error is distinct from x.is_error or c.result is distinct from x.result
),

differences as (
    select * from tool_differences
    union all
    select * from skill_differences
    union all
    select * from result_differences
),

final as (
    select s.probe, s.seq, s.arm, s.session_id, 'differ' as verdict, d.aspect, d.item, d.records, d.transcripts
    from differences as d
    join spawns as s using (probe, session_id)
    union all
    select s.probe, s.seq, s.arm, s.session_id,
        case when c.session_id is null then 'gone' else 'agree' end as verdict,
        null, null, null, null
    from spawns as s
    left join covered as c using (probe, session_id)
    where not exists (select 1 from differences as d where d.probe = s.probe and d.session_id = s.session_id)
)

select * from final
order by probe, seq, aspect nulls first, item
