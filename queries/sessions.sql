-- sessions: the census of Claude Code sessions in the loaded transcripts, one row per session.
--
-- Needs no probe: this is the census of any folder of session files, e.g. ~/.claude/projects/<slug>.
--
-- reads:   transcript_sessions, transcript_tool_uses
-- params:  none
-- returns: one row per session
--   session_id       VARCHAR    the sessionId its lines carry (sub-agent files carry the parent's)
--   first_timestamp  VARCHAR    the earliest timestamp of its lines (ISO 8601, UTC)
--   versions         VARCHAR[]  Claude Code versions that wrote it, sorted
--   models           VARCHAR[]  models of its assistant lines, sorted
--   tools            STRUCT[]   {name, count} per tool, sorted by name; sub-agent calls included
--   skills           VARCHAR[]  skills its Skill / SlashCommand calls named, in call order
--   lines            BIGINT     its non-blank lines, every record type
--   files            VARCHAR[]  its files, relative to the transcripts folder, sorted
-- order:   first_timestamp, session_id

with

tool_counts as (
    select
        session_id,
        name,
        count(*) as n
    from transcript_tool_uses
    group by all
),

tools as (
    select
        session_id,
        list({'name': name, 'count': n} order by name) as tools
    from tool_counts
    group by all
),

skills as (
    select
        session_id,
        list(skill order by ordinal) as skills
    from transcript_tool_uses
    where skill is not null
    group by all
),

final as (
    select
        s.session_id,
        strftime(s.first_timestamp, '%Y-%m-%dT%H:%M:%S.%gZ') as first_timestamp,
        s.versions,
        s.models,
        coalesce(t.tools, []) as tools,
        coalesce(k.skills, []) as skills,
        s.lines,
        s.files
    from transcript_sessions as s
    left join tools as t using (session_id)
    left join skills as k using (session_id)
)

select * from final
order by first_timestamp nulls last, session_id
