-- The files that hold a call that may run a sub-agent (Task, Agent, or a Skill run forked), whose
-- results subagents.sql reads again: each with its count of lines and the session of its lines
-- without a sessionId (mirrors-wanted.sql); and the table the shares fill.
create or replace table transcript_subagent_files as
select f.abs, f.file, f.n, f.session_id
from scan_files as f
where f.file in (select file from transcript_tool_uses where name in ('Task', 'Agent', 'Skill'));

create or replace table transcript_subagent_results (session_id VARCHAR, tool_use_id VARCHAR, agent_id VARCHAR,
    tool_uses BIGINT, ran_inline BOOLEAN, file VARCHAR, rec BIGINT);
