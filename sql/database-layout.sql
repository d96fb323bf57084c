-- What load builds into a database file: each table, defined as DuckDB writes it (duckdb_tables().sql).
-- A --db file whose tables differ from these at all (a column's type, collation, default, constraint or
-- place, a column or table more or less) is refused: load/database-catalogue.ts. Never run. Written by
-- test/store.test.ts from what load builds: after a change to the tables, `npx vitest run test/store.test.ts -u`.
CREATE TABLE addenda(probe VARCHAR, n BIGINT, "text" VARCHAR, file VARCHAR, record JSON);
CREATE TABLE artifacts(probe VARCHAR, session_id VARCHAR, ordinal BIGINT, "label" VARCHAR, path VARCHAR, present BOOLEAN, record JSON);
CREATE TABLE budgets(probe VARCHAR, usd DOUBLE, spawns BIGINT, file VARCHAR, record JSON);
CREATE TABLE conjuncts(probe VARCHAR, n BIGINT, required VARCHAR, "check" VARCHAR, file VARCHAR, rec BIGINT, record JSON);
CREATE TABLE markers(probe VARCHAR, session_id VARCHAR, ordinal BIGINT, "label" VARCHAR, token VARCHAR, file VARCHAR, dir VARCHAR, record JSON);
CREATE TABLE model_prices(model VARCHAR, "input" DECIMAL(12,6), output DECIMAL(12,6), cache_write_5m DECIMAL(12,6), cache_write_1h DECIMAL(12,6), cache_read DECIMAL(12,6), as_of DATE, "source" VARCHAR[]);
CREATE TABLE model_usage(probe VARCHAR, session_id VARCHAR, ordinal BIGINT, model VARCHAR, cost_usd DOUBLE, input_tokens BIGINT, output_tokens BIGINT, cache_read_input_tokens BIGINT, cache_creation_input_tokens BIGINT, record JSON);
CREATE TABLE omg_meta("key" VARCHAR, "value" VARCHAR);
CREATE TABLE permission_denials(probe VARCHAR, session_id VARCHAR, ordinal BIGINT, tool_name VARCHAR, tool_use_id VARCHAR, tool_input JSON, record JSON);
CREATE TABLE pilot_sessions(probe VARCHAR, session_id VARCHAR, addendum BIGINT);
CREATE TABLE registered_arms(probe VARCHAR, ordinal BIGINT, arm VARCHAR, phase VARCHAR, n BIGINT, "trigger" VARCHAR, addendum BIGINT, replaces VARCHAR, what VARCHAR, file VARCHAR, rec BIGINT, record JSON);
CREATE TABLE registration_records(probe VARCHAR, file VARCHAR, rec BIGINT, kind VARCHAR, record JSON);
CREATE TABLE skill_calls(probe VARCHAR, ordinal BIGINT, session_id VARCHAR, arm VARCHAR, tool_use_id VARCHAR, skill VARCHAR, is_error BOOLEAN, result VARCHAR, record JSON);
CREATE TABLE source_files(abs VARCHAR, probe VARCHAR, kind VARCHAR, rel VARCHAR, session_id VARCHAR);
CREATE TABLE spawn_notes(probe VARCHAR, session_id VARCHAR, note VARCHAR, file VARCHAR, rec BIGINT);
CREATE TABLE spawns(probe VARCHAR, seq BIGINT, arm VARCHAR, phase VARCHAR, session_id VARCHAR, status VARCHAR, exit_code BIGINT, cost_usd DOUBLE, claude_version VARCHAR, "mode" VARCHAR, argv_file VARCHAR, plugin_dir VARCHAR, started_at VARCHAR, ended_at VARCHAR, note VARCHAR, stderr VARCHAR, envelope JSON, record JSON);
CREATE TABLE tool_uses(probe VARCHAR, session_id VARCHAR, ordinal BIGINT, tool_use_id VARCHAR, "name" VARCHAR, input_keys VARCHAR[], skill VARCHAR, agent_id VARCHAR, record JSON);
CREATE TABLE transcript_files(dir VARCHAR, file VARCHAR, lines BIGINT, abs VARCHAR);
CREATE TABLE transcript_lines(rec BIGINT, file VARCHAR, "type" VARCHAR, subtype VARCHAR, session_id VARCHAR, uuid VARCHAR, "timestamp" VARCHAR, "version" VARCHAR, is_sidechain BOOLEAN, agent_id VARCHAR, model VARCHAR);
CREATE TABLE transcript_messages(session_id VARCHAR, message_id VARCHAR, request_id VARCHAR, model VARCHAR, first_timestamp TIMESTAMP WITH TIME ZONE, last_timestamp TIMESTAMP WITH TIME ZONE, input_tokens BIGINT, output_tokens BIGINT, cache_creation_input_tokens BIGINT, cache_read_input_tokens BIGINT, cache_creation_5m_input_tokens BIGINT, cache_creation_1h_input_tokens BIGINT, service_tier VARCHAR, is_sidechain BOOLEAN, agent_id VARCHAR, cwd VARCHAR, git_branch VARCHAR, project VARCHAR, cost_usd DECIMAL(38,9), lines BIGINT, file VARCHAR, rec BIGINT);
CREATE TABLE transcript_mirrored_calls(session_id VARCHAR, tool_use_id VARCHAR, "name" VARCHAR, skill VARCHAR, agent_id VARCHAR, parent_tool_use_id VARCHAR, "timestamp" VARCHAR, file VARCHAR, rec BIGINT, block BIGINT, path VARCHAR, command VARCHAR);
CREATE TABLE transcript_sessions(session_id VARCHAR, first_timestamp TIMESTAMP WITH TIME ZONE, versions VARCHAR[], models VARCHAR[], lines BIGINT, files VARCHAR[], cwd VARCHAR, project VARCHAR, git_branch VARCHAR, last_timestamp TIMESTAMP WITH TIME ZONE, duration INTERVAL, responses BIGINT, input_tokens BIGINT, output_tokens BIGINT, cache_creation_input_tokens BIGINT, cache_read_input_tokens BIGINT, cost_usd DECIMAL(38,9));
CREATE TABLE transcript_subagent_results(session_id VARCHAR, tool_use_id VARCHAR, agent_id VARCHAR, tool_uses BIGINT, ran_inline BOOLEAN, file VARCHAR, rec BIGINT);
CREATE TABLE transcript_tool_results(session_id VARCHAR, tool_use_id VARCHAR, is_error BOOLEAN, result VARCHAR, file VARCHAR, rec BIGINT);
CREATE TABLE transcript_tool_use_copies(session_id VARCHAR, tool_use_id VARCHAR, "copy" BIGINT, "name" VARCHAR, input_keys VARCHAR[], skill VARCHAR, agent_id VARCHAR, is_sidechain BOOLEAN, "timestamp" VARCHAR, "version" VARCHAR, model VARCHAR, file VARCHAR, rec BIGINT, block BIGINT, path VARCHAR, command VARCHAR);
CREATE TABLE transcript_tool_uses(session_id VARCHAR, ordinal BIGINT, tool_use_id VARCHAR, "name" VARCHAR, input_keys VARCHAR[], skill VARCHAR, agent_id VARCHAR, is_sidechain BOOLEAN, "timestamp" VARCHAR, "version" VARCHAR, model VARCHAR, file VARCHAR, rec BIGINT, block BIGINT, path VARCHAR, command VARCHAR);
CREATE TABLE void_arms(probe VARCHAR, arm VARCHAR, reason VARCHAR, addendum BIGINT);
