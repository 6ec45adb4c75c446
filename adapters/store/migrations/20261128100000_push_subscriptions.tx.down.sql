DROP TABLE IF EXISTS push_subscriptions;
