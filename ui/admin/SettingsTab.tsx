/**
 * Admin panel, Settings tab (application.md §2 "Settings tab"): three sections — project conversion,
 * object properties and object status options — each its own component under ui/admin/settings/.
 */
import { ConversionSettings } from './settings/ConversionSettings';
import { ObjectPropertiesSettings } from './settings/ObjectPropertiesSettings';
import { StatusOptionsSettings } from './settings/StatusOptionsSettings';

export function SettingsTab() {
  return (
    <div className="space-y-6">
      <ConversionSettings />
      <ObjectPropertiesSettings />
      <StatusOptionsSettings />
    </div>
  );
}
