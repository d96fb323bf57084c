-- The files that hold a `progress` line, whose mirrored calls mirrors.sql reads again: each with its
-- count of lines (a share's lines are numbered from them) and the session of its lines without a
-- sessionId; and the table the shares fill. Plain tables, for the connections that read the shares.
create or replace table transcript_mirror_files as
select f.abs, f.file, f.n, f.session_id
from scan_files as f
where f.abs in (select abs from scan_groups where g.progress > 0);

create or replace table transcript_mirrored_calls (session_id VARCHAR, tool_use_id VARCHAR, name VARCHAR, skill VARCHAR,
    agent_id VARCHAR, parent_tool_use_id VARCHAR, timestamp VARCHAR, file VARCHAR, rec BIGINT, block BIGINT, path VARCHAR,
    command VARCHAR);
