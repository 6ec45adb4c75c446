DROP TABLE IF EXISTS widget_styles;
