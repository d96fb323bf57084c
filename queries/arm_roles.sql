-- arm_roles: what the registration says each arm is, for the marks of the report's arm table:
-- conditional (it has a trigger), a replacement (it replaces another arm), and which addendum
-- registered it.
--
-- reads:   registered_arms
-- params:  none
-- returns: one row per registered arm
--   probe        VARCHAR
--   arm          VARCHAR
--   conditional  BOOLEAN  the arm runs only when its trigger fires
--   trigger      VARCHAR  the trigger's .sql, relative to the probe; NULL when none
--   replaces     VARCHAR  the arm it replaces; NULL when none
--   addendum     BIGINT   the number of the addendum that registered it; NULL for the pre-registration
-- order:   probe, registration order

select probe, arm, trigger is not null as conditional, trigger, replaces, addendum
from registered_arms
order by probe, ordinal
