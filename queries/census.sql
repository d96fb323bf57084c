-- census: the per-spawn tool_use census, from the committed records.
--
-- reads:   spawns, tool_uses, artifacts, markers
-- params:  none
-- returns: one row per spawn
--   probe       VARCHAR        the probe id (its directory name)
--   seq         BIGINT         spawn order within the probe
--   arm         VARCHAR        arm id, e.g. K-CEIL
--   phase       VARCHAR        phase id, e.g. A
--   session_id  VARCHAR        the session the harness passed with --session-id
--   exit_code   BIGINT         exit status of the claude process
--   status      VARCHAR        counted | pilot | void, from the registration's addenda
--   tools       STRUCT[]       {name, count} per tool, sorted by name; empty when no tool call
--   artifacts   VARCHAR[]      labels of the checked files that exist, in record order
--   markers     VARCHAR[]      marker labels, LABEL when found in REPO, LABEL@DIR otherwise
--   skills      VARCHAR[]      skills the spawn's Skill calls named, in call order
--   note        VARCHAR        the spawn's note from notes.jsonl, or NULL
-- order:   probe, seq
-- Every tool_use record counts, sub-agent calls included.

with

tool_counts as (
    select
        probe,
        session_id,
        name,
        count(*) as n
    from tool_uses
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
    from tool_uses
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
        s.exit_code,
        s.status,
        coalesce(t.tools, []) as tools,
        coalesce(a.artifacts, []) as artifacts,
        coalesce(m.markers, []) as markers,
        coalesce(k.skills, []) as skills,
        s.note
    from spawns as s
    left join tools as t using (probe, session_id)
    left join present_artifacts as a using (probe, session_id)
    left join found_markers as m using (probe, session_id)
    left join skills as k using (probe, session_id)
)

select * from final
order by probe, seq
