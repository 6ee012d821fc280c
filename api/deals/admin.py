from django.contrib import admin

from api.deals.models import DailyDeal


@admin.register(DailyDeal)
class DailyDealAdmin(admin.ModelAdmin):
    list_display = (
        "date", "game", "state", "candidate", "solution_length", "redeals",
        "difficulty", "solve_seconds", "verified_at",
    )
    list_filter = ("game", "state")
    date_hierarchy = "date"
    # Everything is derived or written by the verification task.
    readonly_fields = [field.name for field in DailyDeal._meta.fields]

    def has_add_permission(self, request):
        return False
