-- tools_by_project: the tool calls of the loaded transcripts by project: the seven most called
-- tools by name, the rest as one bucket, for the report's stacked bars.
--
-- Needs no probe. A project is the folder that holds the session file (under ~/.claude/projects,
-- the project's slug); the twenty projects with the most calls are kept, the rest summed as one
-- bucket. Sub-agent calls count in their session's project, and a call copied into two sessions'
-- files once. A bucket is marked by its flag, not by a name: a folder named "(other projects)", or a
-- tool named "other", stays itself.
--
-- reads:   transcript_tool_uses, transcript_sessions
-- params:  none
-- returns: one row per project and tool
--   project         VARCHAR  the project folder; NULL for the other projects' bucket, or a session
--                            with no project
--   other_projects  BOOLEAN  the row sums the projects past the twenty
--   tool            VARCHAR  the tool's name; NULL for the other tools' bucket
--   other_tools     BOOLEAN  the row sums the tools past the seven
--   calls           BIGINT
-- order:   the project's calls desc (the other projects last), project, calls desc, tool (the
--          other tools last on a tie)

with

-- A call copied into another session's file (Claude Code 1.0.x began a resumed session's file with
-- copies of the old one's lines) is one call: counted once in a project by its id. A call without an
-- id counts on its own.
calls as (
    select s.project, t.name as tool
    from transcript_tool_uses as t
    join transcript_sessions as s using (session_id)
    qualify t.tool_use_id is null
         or row_number() over (partition by s.project, t.name, t.tool_use_id order by t.session_id, t.ordinal) = 1
),

top_tools as (
    select tool from calls group by tool order by count(*) desc, tool limit 7
),

top_projects as (
    select project from calls group by project order by count(*) desc, project nulls last limit 20
),

flagged as (
    select
        not exists (select 1 from top_projects as p where p.project is not distinct from c.project) as other_projects,
        not exists (select 1 from top_tools as o where o.tool is not distinct from c.tool) as other_tools,
        c.project,
        c.tool
    from calls as c
),

grouped as (
    select
        case when other_projects then null else project end as project,
        other_projects,
        case when other_tools then null else tool end as tool,
        other_tools,
        count(*) as calls
    from flagged
    group by all
)

select project, other_projects, tool, other_tools, calls
from grouped
order by
    other_projects,
    sum(calls) over (partition by project, other_projects) desc,
    project nulls last,
    calls desc,
    other_tools,
    tool
