"""A venue of tables: companions publish to one MQTT broker, a venue screen shows them all.

``settings`` reads ``[venue]``; ``topics`` names the topics and builds the payloads
(docs/venue.md); ``outbox`` keeps the "delivered up to" cursor beside the event log;
``publisher`` is the table side's thread; ``board`` and ``subscriber`` are the screen's side.
"""
