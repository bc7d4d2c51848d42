/** The platform page's example app, Attendance, as its tools/list would answer. */
export const ATTENDANCE_LISTING = {
  tools: [
    {
      name: "clock_in",
      title: "Clock in",
      description: "Record hours worked today.",
      inputSchema: {
        type: "object",
        properties: {
          employee_id: { type: "string", description: "Who is clocking in." },
          hours: { type: "number", description: "How many hours." },
        },
        required: ["employee_id", "hours"],
      },
      annotations: { destructiveHint: false, openWorldHint: true },
    },
    {
      name: "my_hours",
      title: "My hours",
      description: "The hours you have recorded this week.",
      inputSchema: { type: "object", properties: { week: { type: "string", description: "ISO week, e.g. 2026-W49" } } },
      annotations: { readOnlyHint: true },
    },
    {
      name: "team_hours",
      title: "Team hours",
      description: "The hours your team has recorded this week.",
      inputSchema: { type: "object", properties: { team_id: { type: "string" }, week: { type: "string" } } },
      annotations: { readOnlyHint: true },
    },
  ],
};
