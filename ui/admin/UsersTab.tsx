/** Admin panel, Users tab (application.md §2 "Admin panel"). */
export function UsersTab() {
  return <p className="text-sm text-slate-500">Users</p>;
}
