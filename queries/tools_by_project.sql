-- tools_by_project: the tool calls of the loaded transcripts by project: the seven most called
-- tools by name, the rest as "other", for the report's stacked bars.
--
-- Needs no probe. A project is the folder that holds the session file (under ~/.claude/projects,
-- the project's slug); the twenty projects with the most calls are kept, the rest summed as
-- "(other projects)". Sub-agent calls count in their session's project.
--
-- reads:   transcript_tool_uses, transcript_sessions
-- params:  none
-- returns: one row per project and tool
--   project  VARCHAR  the project folder, or "(other projects)"
--   tool     VARCHAR  the tool's name, or "other"
--   calls    BIGINT
-- order:   the project's calls desc ("(other projects)" last), project, calls desc, tool

with

calls as (
    select coalesce(s.project, '(no project)') as project, t.name as tool
    from transcript_tool_uses as t
    join transcript_sessions as s using (session_id)
),

top_tools as (
    select tool from calls group by tool order by count(*) desc, tool limit 7
),

top_projects as (
    select project from calls group by project order by count(*) desc, project limit 20
),

grouped as (
    select
        case when project in (select project from top_projects) then project else '(other projects)' end as project,
        case when tool in (select tool from top_tools) then tool else 'other' end as tool,
        count(*) as calls
    from calls
    group by all
)

select project, tool, calls
from grouped
order by project = '(other projects)', sum(calls) over (partition by project) desc, project, calls desc, tool
