-- census: the per-spawn tool_use census, from the committed records or from the transcripts.
--
-- reads:   spawns, tool_uses, transcript_tool_uses, transcript_sessions, artifacts, markers
-- params:  from  'records' (the tool_use/ files) or 'transcripts' (the loaded session transcripts)
-- returns: one row per spawn
--   probe       VARCHAR        the probe id (its directory name)
--   seq         BIGINT         spawn order within the probe
--   arm         VARCHAR        arm id, e.g. K-CEIL
--   phase       VARCHAR        phase id, e.g. A
--   session_id  VARCHAR        the session the harness passed with --session-id
--   status      VARCHAR        counted | pilot | void, from the registration's addenda
--   exit_code   BIGINT         exit status of the claude process
--   tools       STRUCT[]       {name, count} per tool, sorted by name; empty when no tool call;
--                              NULL when the source has nothing for the spawn (no transcript: "gone")
--   artifacts   VARCHAR[]      labels of the checked files that exist, in record order
--   markers     VARCHAR[]      marker labels, LABEL when found in REPO, LABEL@DIR otherwise
--   skills      VARCHAR[]      skills the spawn's Skill calls named, in call order
--   note        VARCHAR        the spawn's note from notes.jsonl, or NULL
-- order:   probe, seq
-- Every tool_use record counts, sub-agent calls included.

with

source_tools as (
    select probe, session_id, ordinal, name, skill
    from tool_uses
    where $from = 'records'
    union all
    select s.probe, t.session_id, t.ordinal, t.name, t.skill
    from transcript_tool_uses as t
    join spawns as s using (session_id)
    where $from = 'transcripts'
),

-- The spawns the source speaks for: every row has its tool_use file (the loader checks), but only
-- a spawn that opened a session has a transcript.
covered as (
    select probe, session_id
    from spawns
    where $from = 'records'
    union all
    select probe, session_id
    from spawns as s
    where $from = 'transcripts'
      and exists (select 1 from transcript_sessions as t where t.session_id = s.session_id)
),

tool_counts as (
    select
        probe,
        session_id,
        name,
        count(*) as n
    from source_tools
    group by all
),

tools as (
    select
        probe,
        session_id,
        list({'name': name, 'count': n} order by name) as tools
    from tool_counts
    group by all
),

skills as (
    select
        probe,
        session_id,
        list(skill order by ordinal) as skills
    from source_tools
    where skill is not null
    group by all
),

present_artifacts as (
    select
        probe,
        session_id,
        list(label order by ordinal) as artifacts
    from artifacts
    where present
    group by all
),

found_markers as (
    select
        probe,
        session_id,
        list(case when dir = 'REPO' then label else label || '@' || dir end order by ordinal) as markers
    from markers
    group by all
),

final as (
    select
        s.probe,
        s.seq,
        s.arm,
        s.phase,
        s.session_id,
        s.status,
        s.exit_code,
        case when c.session_id is not null then coalesce(t.tools, []) end as tools,
        coalesce(a.artifacts, []) as artifacts,
        coalesce(m.markers, []) as markers,
        coalesce(k.skills, []) as skills,
        s.note
    from spawns as s
    left join covered as c using (probe, session_id)
    left join tools as t using (probe, session_id)
    left join present_artifacts as a using (probe, session_id)
    left join found_markers as m using (probe, session_id)
    left join skills as k using (probe, session_id)
)

select * from final
order by probe, seq
