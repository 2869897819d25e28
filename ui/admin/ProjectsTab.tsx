/** Admin panel, Projects tab (application.md §2 "Admin panel"). */
export function ProjectsTab() {
  return <p className="text-sm text-slate-500">Projects</p>;
}
