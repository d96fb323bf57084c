-- The transcript tables with no transcripts: the same shapes as tables.sql and results.sql make.
create or replace table transcript_lines (rec BIGINT, file VARCHAR, type VARCHAR, subtype VARCHAR, session_id VARCHAR,
    uuid VARCHAR, timestamp VARCHAR, version VARCHAR, is_sidechain BOOLEAN, agent_id VARCHAR, model VARCHAR);
create or replace table transcript_sessions (session_id VARCHAR, first_timestamp TIMESTAMPTZ, versions VARCHAR[],
    models VARCHAR[], lines BIGINT, files VARCHAR[], cwd VARCHAR, project VARCHAR, git_branch VARCHAR,
    last_timestamp TIMESTAMPTZ, duration INTERVAL, responses BIGINT, input_tokens BIGINT, output_tokens BIGINT,
    cache_creation_input_tokens BIGINT, cache_read_input_tokens BIGINT, cost_usd DECIMAL(38, 9));
create or replace table transcript_messages (session_id VARCHAR, message_id VARCHAR, request_id VARCHAR, model VARCHAR,
    first_timestamp TIMESTAMPTZ, last_timestamp TIMESTAMPTZ, input_tokens BIGINT, output_tokens BIGINT,
    cache_creation_input_tokens BIGINT, cache_read_input_tokens BIGINT, cache_creation_5m_input_tokens BIGINT,
    cache_creation_1h_input_tokens BIGINT, service_tier VARCHAR, is_sidechain BOOLEAN, agent_id VARCHAR, cwd VARCHAR,
    git_branch VARCHAR, project VARCHAR, cost_usd DECIMAL(38, 9), lines BIGINT, file VARCHAR, rec BIGINT);
create or replace table transcript_tool_uses (session_id VARCHAR, ordinal BIGINT, tool_use_id VARCHAR, name VARCHAR,
    input_keys VARCHAR[], skill VARCHAR, agent_id VARCHAR, is_sidechain BOOLEAN, timestamp VARCHAR, version VARCHAR,
    model VARCHAR, file VARCHAR, rec BIGINT, block BIGINT, path VARCHAR, command VARCHAR);
create or replace table transcript_tool_use_copies (session_id VARCHAR, tool_use_id VARCHAR, copy BIGINT, name VARCHAR,
    input_keys VARCHAR[], skill VARCHAR, agent_id VARCHAR, is_sidechain BOOLEAN, timestamp VARCHAR, version VARCHAR,
    model VARCHAR, file VARCHAR, rec BIGINT, block BIGINT, path VARCHAR, command VARCHAR);
create or replace table transcript_mirrored_calls (session_id VARCHAR, tool_use_id VARCHAR, name VARCHAR, skill VARCHAR,
    agent_id VARCHAR, parent_tool_use_id VARCHAR, timestamp VARCHAR, file VARCHAR, rec BIGINT, block BIGINT, path VARCHAR,
    command VARCHAR);
create or replace table transcript_subagent_results (session_id VARCHAR, tool_use_id VARCHAR, agent_id VARCHAR,
    tool_uses BIGINT, ran_inline BOOLEAN, file VARCHAR, rec BIGINT);
create or replace table transcript_tool_results (session_id VARCHAR, tool_use_id VARCHAR, is_error BOOLEAN,
    result VARCHAR, file VARCHAR, rec BIGINT);
create or replace table transcript_files (dir VARCHAR, file VARCHAR, lines BIGINT, abs VARCHAR);
