/** Admin panel, Scheduling tab (application.md §2 "Admin panel"). */
export function SchedulingTab() {
  return <p className="text-sm text-slate-500">Scheduling</p>;
}
