-- Whether every upload of a datasource is right-to-be-forgotten, whatever its object metadata
-- says (decision 1512). Only ever set to true: an account event cannot make a forgettable
-- datasource ordinary again, so a redelivered or reordered event never downgrades it.
ALTER TABLE datasource_bindings
    ADD COLUMN right_to_be_forgotten BOOLEAN NOT NULL DEFAULT false;
